// review push.
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/render.h"
#include "cli/verb.h"
#include "transaction/push.h"

namespace gentle::cli {
namespace {

// review push (docs/format.md).
struct PushOptions {
  std::string remote = "origin";
  std::vector<std::string> lineages;  // empty: every local history
};

int RunPush(const CommonOptions& common, const PushOptions& options) {
  auto result = transaction::PushReviews(common.cwd, options.remote, options.lineages);
  if (!result.ok()) return ReportError(result.status(), common.json);
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-push/v1";
    out["remote"] = result->remote;
    out["lineages"] = nlohmann::ordered_json::array();
    for (const auto& l : result->lineages) {
      nlohmann::ordered_json entry;
      entry["lineage"] = l.lineage;
      entry["tip"] = l.tip;
      entry["result"] = l.result;
      out["lineages"].push_back(entry);
    }
    return PrintJson(out);
  }
  std::ostringstream human;
  if (result->lineages.empty()) human << "no review histories to push\n";
  for (const auto& l : result->lineages) {
    human << l.lineage << "  " << l.tip << "  " << l.result << " on " << result->remote << "\n";
  }
  PrintHuman(human.str());
  return 0;
}

}  // namespace

void DefinePush(CLI::App* review, const Verb& verb, Invocation* in) {
  PushOptions* o = in->Hold<PushOptions>();
  Command push = AddCommand(review, verb, in);
  push.AddOption("--remote", &o->remote, "The git remote (default: origin)");
  push.AddOption("--lineage", &o->lineages,
                 "Push only this lineage (repeatable; default: every local history)");
  push.OnParsed([in, o] { in->Choose([in, o] { return RunPush(in->common, *o); }); });
}

}  // namespace gentle::cli
