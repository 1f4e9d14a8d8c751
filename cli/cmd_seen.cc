// review seen baseline | add | check | list | new (docs/loop.md).
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/render.h"
#include "cli/seen_verb.h"
#include "cli/verb.h"
#include "loop/comment_id.h"
#include "loop/context_ids.h"
#include "loop/pr_key.h"
#include "loop/seen_ledger.h"
#include "store/git/repository.h"
#include "store/lineage_id.h"
#include "store/named_file.h"
#include "watch/poster.h"

namespace gentle::cli {
namespace {

// review seen baseline | add | check | list | new (docs/loop.md): one set of options, each verb
// defining only the flags it uses.
struct SeenOptions {
  SeenVerb verb = SeenVerb::kList;
  std::string pr;
  std::vector<std::string> ids;         // --id (repeatable; check: exactly one)
  std::optional<std::string> ids_file;  // --ids-file FILE|-: one id per line
  std::string context;                  // new: --context FILE
  bool posted = false;                  // add --posted
  std::optional<std::string> lineage;   // add --posted --lineage L: the lineage the post answers
  std::string lineage_text;             // as parsed
  bool force = false;                   // baseline --force
  std::string ids_file_text;            // as parsed
};

using Json = nlohmann::ordered_json;

// An ids file (or stdin for "-"): one id per line (N, comment:N or review:N), the last line's
// newline optional; at most loop::kMaxContextBytes. An empty line, a CR or anything but an id is
// `usage`.
Result<std::vector<loop::SeenId>> ReadIdsFile(const std::string& path) {
  auto read = store::ReadNamedInput(path, loop::kMaxContextBytes);
  if (!read.ok())
    return Status(Code::kUsage, "--ids-file " + path + ": " + read.status().message());
  const std::string& text = *read;
  std::vector<loop::SeenId> ids;
  size_t start = 0, line = 1;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    auto id = loop::ParseSeenId(std::string_view(text).substr(start, end - start));
    if (!id.ok()) {
      return Status(Code::kUsage, "--ids-file " + path + " line " + std::to_string(line) + ": " +
                                      id.status().message());
    }
    ids.push_back(std::move(id).value());
    start = end + 1;
    ++line;
  }
  return ids;
}

Result<std::vector<loop::SeenId>> CollectIds(const SeenOptions& o) {
  std::vector<loop::SeenId> ids;
  for (const std::string& text : o.ids) {
    auto id = loop::ParseSeenId(text);
    if (!id.ok()) return Status(Code::kUsage, "--id: " + id.status().message());
    ids.push_back(std::move(id).value());
  }
  if (o.ids_file) {
    GENTLE_ASSIGN_OR_RETURN(std::vector<loop::SeenId> more, ReadIdsFile(*o.ids_file));
    ids.insert(ids.end(), more.begin(), more.end());
  }
  return ids;
}

// The ids as text: N for a comment, review:N for a review (loop/comment_id.h).
Json IdsJson(const std::vector<loop::SeenId>& ids) {
  Json out = Json::array();
  for (const loop::SeenId& id : ids) out.push_back(loop::FormatSeenId(id));
  return out;
}

Json Base(SeenVerb verb, const std::string& pr) {
  Json out;
  out["schema"] = loop::kSeenSchema;
  out["verb"] = SeenVerbName(verb);
  out["pr"] = pr;
  return out;
}

int PrintWrite(const CommonOptions& common, const SeenOptions& o, const std::string& pr,
               const std::string& kind, const loop::SeenWrite& w) {
  if (common.json) {
    Json out = Base(o.verb, pr);
    out["kind"] = kind;
    out["recorded_at"] = w.recorded_at;
    out["added"] = IdsJson(w.added);
    out["already_seen"] = IdsJson(w.already_seen);
    if (o.verb == SeenVerb::kBaseline) out["forced"] = o.force;
    return PrintJson(out);
  }
  std::cout << (o.verb == SeenVerb::kBaseline ? "baselined " : "seen ") << pr << ": "
            << w.added.size() << " added (" << kind << "), " << w.already_seen.size()
            << " already seen\n";
  return 0;
}

int Write(const CommonOptions& common, const SeenOptions& o, const std::string& pr,
          const std::vector<loop::SeenId>& ids) {
  const bool baseline = o.verb == SeenVerb::kBaseline;
  if (!baseline && ids.empty()) {
    return ReportError(Status(Code::kUsage, "seen add needs at least one --id or --ids-file id"),
                       common.json);
  }
  if (o.lineage) {
    if (!o.posted) {
      return ReportError(
          Status(Code::kUsage, "--lineage names the lineage posted ids answer: it needs --posted"),
          common.json);
    }
    if (Status valid = store::ValidateLineageId(*o.lineage); !valid.ok()) {
      return ReportError(valid, common.json);
    }
  }
  auto repo = store::git::Repository::Discover(common.cwd);
  if (!repo.ok()) return ReportError(repo.status(), common.json);
  const loop::SeenKind kind = baseline
                                  ? loop::SeenKind::kBaseline
                                  : (o.posted ? loop::SeenKind::kPosted : loop::SeenKind::kHandled);
  auto written = baseline ? loop::Baseline(repo->common_dir(), pr, ids, o.force)
                          : loop::Add(repo->common_dir(), pr, ids, kind, o.lineage.value_or(""));
  if (!written.ok()) return ReportError(written.status(), common.json);
  return PrintWrite(common, o, pr, std::string(loop::SeenKindName(kind)), *written);
}

int Read(const CommonOptions& common, const SeenOptions& o, const std::string& pr,
         const std::vector<loop::SeenId>& ids) {
  // Everything the command was given is checked before the repository is opened.
  std::vector<loop::SeenId> context_ids;
  if (o.verb == SeenVerb::kCheck && (ids.size() != 1 || o.ids_file)) {
    return ReportError(Status(Code::kUsage, "seen check takes exactly one --id"), common.json);
  }
  if (o.verb == SeenVerb::kNew) {
    auto read = loop::ReadContextIds(o.context);
    if (!read.ok()) return ReportError(read.status(), common.json);
    context_ids = std::move(read).value();
  }
  auto repo = store::git::Repository::Discover(common.cwd);
  if (!repo.ok()) return ReportError(repo.status(), common.json);
  // A post left unanswered on this PR (review post, docs/loop.md) is found and recorded first, so
  // the session's own comment is never reported as new. Nothing open: nothing is written. Before
  // the reader opens: its read-only view of the file would make the writer's read-only too.
  if (o.verb == SeenVerb::kNew) {
    auto recovered = watch::RecoverPosts(
        repo->common_dir(),
        watch::DefaultPostLinks(repo->is_bare() ? std::string() : repo->worktree_root()), pr);
    if (!recovered.ok()) return ReportError(recovered.status(), common.json);
  }
  auto reader = loop::SeenLedgerReader::Open(repo->common_dir());
  if (!reader.ok()) return ReportError(reader.status(), common.json);
  if (o.verb == SeenVerb::kCheck) {
    auto found = reader->Find(pr, ids[0]);
    if (!found.ok()) return ReportError(found.status(), common.json);
    const std::optional<loop::SeenEntry>& entry = *found;
    const std::string id = loop::FormatSeenId(ids[0]);
    if (common.json) {
      Json out = Base(SeenVerb::kCheck, pr);
      out["id"] = id;
      out["seen"] = entry.has_value();
      out["kind"] = entry ? Json(std::string(loop::SeenKindName(entry->kind))) : Json();
      out["recorded_at"] = entry ? Json(entry->recorded_at) : Json();
      return PrintJson(out);
    }
    if (entry) {
      std::cout << id << "  seen  " << loop::SeenKindName(entry->kind) << "  " << entry->recorded_at
                << "\n";
    } else {
      std::cout << id << "  not seen\n";
    }
    return 0;
  }
  if (o.verb == SeenVerb::kList) {
    auto listed = reader->List(pr);
    if (!listed.ok()) return ReportError(listed.status(), common.json);
    if (common.json) {
      Json out = Base(SeenVerb::kList, pr);
      out["baselined_at"] = listed->baselined_at ? Json(*listed->baselined_at) : Json();
      out["ids"] = Json::array();
      for (const loop::SeenEntry& e : listed->entries) {
        Json entry;
        entry["id"] = loop::FormatSeenId(e.id);
        entry["kind"] = std::string(loop::SeenKindName(e.kind));
        entry["recorded_at"] = e.recorded_at;
        out["ids"].push_back(entry);
      }
      return PrintJson(out);
    }
    for (const loop::SeenEntry& e : listed->entries) {
      std::cout << loop::FormatSeenId(e.id) << "  " << loop::SeenKindName(e.kind) << "  "
                << e.recorded_at << "\n";
    }
    return 0;
  }
  auto unseen = reader->Unseen(pr, context_ids);
  if (!unseen.ok()) return ReportError(unseen.status(), common.json);
  if (common.json) {
    Json out = Base(SeenVerb::kNew, pr);
    out["ids"] = IdsJson(*unseen);
    return PrintJson(out);
  }
  for (const loop::SeenId& id : *unseen) std::cout << loop::FormatSeenId(id) << "\n";
  return 0;
}

int RunSeen(const CommonOptions& common, const SeenOptions& o) {
  auto key = loop::ParsePrKey(o.pr);
  if (!key.ok()) return ReportError(key.status(), common.json);
  const std::string pr = loop::FormatPrKey(*key);
  auto ids = CollectIds(o);
  if (!ids.ok()) return ReportError(ids.status(), common.json);
  if (o.verb == SeenVerb::kBaseline || o.verb == SeenVerb::kAdd) return Write(common, o, pr, *ids);
  return Read(common, o, pr, *ids);
}

}  // namespace

// review seen baseline|add|check|list|new: each verb takes only the flags it uses.
void DefineSeen(CLI::App* review, const Verb& verb, Invocation* in) {
  SeenOptions* o = in->Hold<SeenOptions>();
  CLI::App* seen = AddGroup(review, verb);
  // One description per SeenVerb, in kAllSeenVerbs' order.
  constexpr const char* kDescriptions[] = {
      "Record the PR's existing comment and review ids once (again only with --force)",
      "Record ids handled (or, with --posted, posted: record at post time)",
      "Whether one id is seen (read-only; exit 0 either way)",
      "The PR's seen ids with kind and time, in insertion order (read-only)",
      "The comment ids, then the review ids, of a ReviewContext not seen yet (read-only)",
  };
  static_assert(std::size(kDescriptions) == std::size(kAllSeenVerbs));
  for (size_t i = 0; i < std::size(kAllSeenVerbs); ++i) {
    const SeenVerb seen_verb = kAllSeenVerbs[i];
    Command command = AddCommand(seen, SeenVerbName(seen_verb), kDescriptions[i], in);
    command.AddOption("--pr", &o->pr, "The pull request: FORGE:OWNER/REPO#N").Required();
    if (seen_verb == SeenVerb::kBaseline || seen_verb == SeenVerb::kAdd ||
        seen_verb == SeenVerb::kCheck) {
      Option id = command.AddOption(
          "--id", &o->ids,
          seen_verb == SeenVerb::kCheck
              ? "The id: N (comment N) or review:N (the body of review N)"
              : "An id: N (comment N) or review:N (the body of review N); repeatable");
      if (seen_verb == SeenVerb::kCheck) id.Required();
    }
    if (seen_verb == SeenVerb::kBaseline || seen_verb == SeenVerb::kAdd) {
      command
          .AddOption("--ids-file", &o->ids_file_text,
                     "A file of ids (N or review:N), one per line (- for stdin)")
          .TypeName("FILE");
    }
    if (seen_verb == SeenVerb::kBaseline) {
      command.AddFlag("--force", &o->force,
                      "Baseline again: add the ids, keep everything already seen");
    }
    if (seen_verb == SeenVerb::kAdd) {
      command.AddFlag("--posted", &o->posted,
                      "The ids are comments or reviews you posted (recorded in the same step as "
                      "the post)");
      command
          .AddOption("--lineage", &o->lineage_text,
                     "With --posted: the lineage whose verdict the posted ids answer (status's "
                     "next_lineage)")
          .TypeName("ID");
    }
    if (seen_verb == SeenVerb::kNew) {
      command.AddOption("--context", &o->context, "A ReviewContext JSON file")
          .TypeName("FILE")
          .Required();
    }
    command.OnParsed([in, o, command, seen_verb] {
      o->verb = seen_verb;
      if (Given(command, "--ids-file")) o->ids_file = o->ids_file_text;
      if (Given(command, "--lineage")) o->lineage = o->lineage_text;
      in->Choose([in, o] { return RunSeen(in->common, *o); });
    });
  }
}

}  // namespace gentle::cli
