// review import.
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/progress.h"
#include "cli/render.h"
#include "cli/verb.h"
#include "transaction/import.h"

namespace gentle::cli {
namespace {

struct ImportOptions {
  std::string lineage;
  std::optional<std::string> remote;
  bool accept_terminal = false;
  std::string remote_text;  // as parsed
};

int RunImport(const CommonOptions& common, const ImportOptions& options) {
  ProgressLine progress("import", common.json);
  transaction::ImportRequest request;
  request.cwd = common.cwd;
  request.lineage = options.lineage;
  request.remote = options.remote;
  request.accept_terminal = options.accept_terminal;
  request.progress = progress.get();
  auto result = transaction::Import(request);
  progress.Finish();
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::ImportResult& r = *result;
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-import/v1";
    out["lineage"] = r.lineage;
    out["remote"] = r.remote;
    out["outcome"] = transaction::ImportOutcomeName(r.outcome);
    out["state"] = r.state.name();
    out["revision"] = r.revision;
    out["fetched_tip"] = r.fetched_tip;
    out["local_tip_before"] = NullIfEmpty(r.local_tip_before);
    out["commits"] = r.commits;
    return PrintJson(out);
  }
  std::ostringstream human;
  if (r.outcome == transaction::ImportOutcome::kUpToDate) {
    human << "lineage " << r.lineage << " is up to date with " << r.remote << " (" << r.state.name()
          << ")\n";
  } else {
    human << "imported " << r.lineage << " from " << r.remote << ": " << r.state.name() << ", "
          << r.commits << " new history commit(s)\n";
  }
  PrintHuman(human.str());
  return 0;
}

}  // namespace

void DefineImport(CLI::App* review, const Verb& verb, Invocation* in) {
  ImportOptions* o = in->Hold<ImportOptions>();
  Command command = AddCommand(review, verb, in);
  command.AddOption("--lineage", &o->lineage, "The lineage id").Required();
  command.AddOption("--remote", &o->remote_text,
                    "The remote it was fetched from (default: the only one that has it)");
  command.AddFlag("--accept-terminal", &o->accept_terminal,
                  "Take a burn or abandon from the remote for a lineage that is live here "
                  "(refused as conflict without it)");
  command.OnParsed([in, o, command] {
    if (Given(command, "--remote")) o->remote = o->remote_text;
    in->Choose([in, o] { return RunImport(in->common, *o); });
  });
}

}  // namespace gentle::cli
