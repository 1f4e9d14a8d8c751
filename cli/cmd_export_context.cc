// review export-context.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>

#include "cli/output_file.h"
#include "cli/progress.h"
#include "cli/render.h"
#include "cli/round_flag.h"
#include "cli/terminal.h"
#include "cli/verb.h"
#include "export/context_export.h"
#include "export/engine.h"
#include "export/interdiff_export.h"
#include "export/patch_spool.h"
#include "store/file_io.h"
#include "transaction/status.h"

namespace gentle::cli {
namespace {

struct ExportOptions {
  std::string lineage;
  std::string engine{exporter::EngineName(exporter::Engine::kNative)};  // --engine
  std::string output;                                                   // empty: stdout
  std::optional<std::string> round;          // --round N, checked as a decimal >= 1
  std::optional<std::string> since_round;    // --since-round N (exclusive with --round)
  std::string round_text, since_round_text;  // as parsed
  std::optional<std::string> view;           // --view full|review
  std::optional<std::string> max_bytes;      // --max-bytes N
  std::optional<std::string> part;           // --part K
  std::string view_text, max_bytes_text, part_text;
};

// A decimal number >= 1 without sign or leading zero, at most `max`; nullopt otherwise.
std::optional<uint64_t> ParsePositive(const std::string& text, uint64_t max) {
  if (text.empty() || text.size() > 18 || text[0] == '0' ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  const uint64_t value = std::stoull(text);
  if (value > max) return std::nullopt;
  return value;
}

// The part to export (docs/commands.md, "Views and parts"), or nullopt for the whole diff as
// always: --view full with neither --max-bytes nor --part is the whole diff.
Result<std::optional<exporter::PartRequest>> ParsePartFlags(const ExportOptions& options,
                                                            exporter::Engine engine) {
  exporter::PartRequest request;
  if (options.view) {
    const std::optional<exporter::View> view = exporter::ParseView(*options.view);
    if (!view) return Status(Code::kUsage, "--view must be full or review");
    request.view = *view;
  }
  if (options.part && !options.max_bytes) {
    return Status(Code::kUsage, "--part needs --max-bytes");
  }
  if (options.max_bytes) {
    const auto n = ParsePositive(*options.max_bytes, exporter::kMaxContextBytes);
    if (!n) {
      return Status(Code::kUsage, "--max-bytes must be a decimal number from 1 to " +
                                      std::to_string(exporter::kMaxContextBytes));
    }
    request.max_bytes = *n;
  }
  if (options.part) {
    const auto k = ParsePositive(*options.part, uint64_t{1} << 40);
    if (!k) return Status(Code::kUsage, "--part must be a decimal number >= 1");
    request.part = static_cast<size_t>(*k);
  }
  if (request.view == exporter::View::kFull && !options.max_bytes) {
    return std::optional<exporter::PartRequest>();
  }
  if (engine != exporter::Engine::kNative) {
    return Status(Code::kUsage, "--engine git exports the whole full view only");
  }
  return std::optional<exporter::PartRequest>(request);
}

// An export larger than this shows the bytes written on a terminal (docs/commands.md, "Progress and
// colour").
constexpr size_t kProgressBytes = size_t{1} << 20;
constexpr size_t kProgressChunk = size_t{256} << 10;

// Progress for writing `size` bytes: only for a big human export, with stderr a capable terminal
// and the bytes going to a file or a pipe (on the terminal stderr shares, the line would overwrite
// the patch's text).
ProgressLine::Active WantsProgress(size_t size, const std::string& output, bool json) {
  return {size > kProgressBytes && !json && (!output.empty() || isatty(1) != 1) &&
          CapableTerminal(2)};
}

// `bytes` on stdout, bytes `before` to `before + bytes.size()` of `total`; with `progress`, in
// chunks, each counted as written once flushed. `internal` naming the error when stdout refuses
// them (a full disk, a closed descriptor), as when it refuses a spooled front.
Status WritePatchToStdout(const std::string& bytes, size_t before, size_t total,
                          store::Progress* progress) {
  const size_t chunk = progress != nullptr ? kProgressChunk : std::max<size_t>(bytes.size(), 1);
  for (size_t at = 0; at < bytes.size(); at += chunk) {
    if (progress != nullptr) progress->Step("bytes written", before + at, total);
    if (!WriteStdout(std::string_view(bytes).substr(at, chunk))) {
      const int err = StdoutErrno();
      return Status(Code::kInternal, std::string("writing the patch: ") +
                                         (err != 0 ? std::strerror(err) : "stdout refused it"));
    }
  }
  if (progress != nullptr) progress->Step("bytes written", before + bytes.size(), total);
  return Status::Ok();
}

int Emit(const std::string& bytes, const std::string& output, bool json) {
  ProgressLine progress("export-context", WantsProgress(bytes.size(), output, json));
  if (!output.empty()) {
    store::ReportProgress(progress.get(), "bytes written", 0, bytes.size());
    Status st = WriteOutputFile(output, bytes);
    if (!st.ok()) {
      progress.Finish();
      return ReportError(st, json);
    }
    store::ReportProgress(progress.get(), "bytes written", bytes.size(), bytes.size());
    return 0;
  }
  Status st = WritePatchToStdout(bytes, 0, bytes.size(), progress.get());
  if (!st.ok()) {
    progress.Finish();
    return ReportError(st, false);
  }
  return 0;
}

// The raw patch whose front `spool` holds, followed by `tail`, on stdout.
int EmitSpooled(const exporter::PatchSpool& spool, const std::string& tail) {
  if (spool.size() == 0) return Emit(tail, "", false);
  const size_t total = spool.size() + tail.size();
  ProgressLine progress("export-context", WantsProgress(total, "", false));
  std::fflush(stdout);
  for (size_t at = 0; at < spool.size(); at += kProgressChunk) {
    store::ReportProgress(progress.get(), "bytes written", at, total);
    Status st = spool.CopyTo(STDOUT_FILENO, at, std::min(kProgressChunk, spool.size() - at));
    if (!st.ok()) {
      progress.Finish();
      return ReportError(st, false);
    }
  }
  Status st = WritePatchToStdout(tail, spool.size(), total, progress.get());
  if (!st.ok()) {
    progress.Finish();
    return ReportError(st, false);
  }
  return 0;
}

// export-context --since-round N: the interdiff (raw patch, or its envelope with --json).
int RunInterdiff(const CommonOptions& common, const ExportOptions& options, exporter::Engine engine,
                 int64_t since_round, const std::optional<exporter::PartRequest>& part) {
  exporter::InterdiffRequest request;
  request.cwd = common.cwd;
  request.lineage = options.lineage;
  request.engine = engine;
  request.since_round = since_round;
  request.part = part;
  auto result = exporter::ExportInterdiff(request);
  if (!result.ok()) return ReportError(result.status(), common.json);
  if (common.json) {
    return Emit(exporter::RenderInterdiffEnvelope(*result) + "\n", options.output, true);
  }
  return Emit(result->derived.patch, options.output, false);
}

int RunExportContext(const CommonOptions& common, const ExportOptions& options) {
  if (options.round && options.since_round) {
    return ReportError(Status(Code::kUsage, "--round and --since-round exclude each other"),
                       common.json);
  }
  auto round = ParseRoundFlag("--round", options.round);
  if (!round.ok()) return ReportError(round.status(), common.json);
  auto since_round = ParseRoundFlag("--since-round", options.since_round);
  if (!since_round.ok()) return ReportError(since_round.status(), common.json);
  const std::optional<exporter::Engine> engine = exporter::ParseEngine(options.engine);
  if (!engine) {
    return ReportError(Status(Code::kUsage, "--engine must be native or git"), common.json);
  }
  auto part = ParsePartFlags(options, *engine);
  if (!part.ok()) return ReportError(part.status(), common.json);
  if (*since_round) return RunInterdiff(common, options, *engine, **since_round, *part);
  exporter::ContextRequest request;
  request.cwd = common.cwd;
  request.lineage = options.lineage;
  request.engine = *engine;
  request.round = *round;
  request.part = *part;
  // The raw whole diff on stdout keeps its front in a temporary file until it is complete, not in
  // memory (export/patch_spool.h); a small one never opens the file.
  exporter::PatchSpool spool;
  const bool spooled =
      !common.json && options.output.empty() && !*part && *engine == exporter::Engine::kNative;
  if (spooled) request.spool = &spool;
  request.context_binding = common.json;  // only the envelope names the context digest
  // Applicability and next are reported only in the JSON envelope. Computing them recaptures the
  // live target (for current-changes: hashes the whole worktree), so the raw patch does not pay.
  if (common.json) {
    request.standing = [](const store::git::Repository& repo, const store::RecordView& record,
                          const std::string& source) -> Result<exporter::Standing> {
      GENTLE_ASSIGN_OR_RETURN(transaction::LineageStatus s,
                              transaction::AssessRecord(repo, record, source));
      // The context has just been read: a lineage that waited for its export now waits for a
      // verdict.
      const transaction::Next next = transaction::AfterExport(s.next);
      return exporter::Standing{std::string(transaction::ApplicabilityName(s.applicability)),
                                std::string(transaction::NextActionName(next.action)),
                                std::string(transaction::NextReasonName(next.reason))};
    };
  }
  auto result = exporter::ExportContext(request);
  if (!result.ok()) return ReportError(result.status(), common.json);
  if (common.json) return Emit(exporter::RenderEnvelope(*result) + "\n", options.output, true);
  if (spooled) return EmitSpooled(spool, result->derived.patch);
  return Emit(result->derived.patch, options.output, false);
}

}  // namespace

void DefineExportContext(CLI::App* review, const Verb& verb, Invocation* in) {
  ExportOptions* o = in->Hold<ExportOptions>();
  Command command = AddCommand(review, verb, in);
  command.AddOption("--lineage", &o->lineage, "The lineage").Required();
  command
      .AddOption("--output", &o->output,
                 "Write to FILE (a regular file or a new path) instead of stdout")
      .TypeName("FILE");
  command.AddOption("--engine", &o->engine,
                    "native (default) or git (the pinned git CLI, for cross-checks)");
  command.AddOption("--round", &o->round_text,
                    "Export round N (a record generation) from the lineage's history "
                    "(default: the current round)");
  command.AddOption("--since-round", &o->since_round_text,
                    "Export the interdiff from round N's candidate tree to the current one "
                    "(--json: gentle-ai.review-interdiff-export/v1)");
  command.AddOption("--view", &o->view_text,
                    "full (default: the exact diff) or review (generated entries summarised)");
  command
      .AddOption("--max-bytes", &o->max_bytes_text,
                 "Split the view at entry boundaries into the fewest parts of at most N bytes "
                 "(1 to 4194304)")
      .TypeName("N");
  command
      .AddOption("--part", &o->part_text, "Export part K (1-based; needs --max-bytes; default 1)")
      .TypeName("K");
  command.OnParsed([in, o, command] {
    if (Given(command, "--view")) o->view = o->view_text;
    if (Given(command, "--max-bytes")) o->max_bytes = o->max_bytes_text;
    if (Given(command, "--part")) o->part = o->part_text;
    if (Given(command, "--round")) o->round = o->round_text;
    if (Given(command, "--since-round")) o->since_round = o->since_round_text;
    in->Choose([in, o] { return RunExportContext(in->common, *o); });
  });
}

}  // namespace gentle::cli
