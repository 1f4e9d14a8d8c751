// review fetch.
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/render.h"
#include "cli/verb.h"
#include "transaction/fetch.h"

namespace gentle::cli {
namespace {

// review fetch (docs/format.md).
struct FetchOptions {
  std::string remote = "origin";
};

int RunFetch(const CommonOptions& common, const FetchOptions& options) {
  auto result = transaction::FetchReviews(common.cwd, options.remote);
  if (!result.ok()) return ReportError(result.status(), common.json);
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-fetch/v1";
    out["remote"] = result->remote;
    out["lineages"] = nlohmann::ordered_json::array();
    for (const auto& l : result->lineages) {
      nlohmann::ordered_json entry;
      entry["lineage"] = l.lineage;
      entry["tip"] = l.tip;
      entry["state"] = NullIfEmpty(l.state.name());
      entry["terminal"] = NullIfEmpty(l.terminal.text());
      entry["verified"] = l.verified;
      if (!l.verified) {
        entry["error"]["code"] = std::string(CodeName(l.error.code()));
        entry["error"]["message"] = l.error.message();
        entry["error"]["details"] = nlohmann::ordered_json::object();
        for (const auto& [key, value] : l.error.details()) entry["error"]["details"][key] = value;
      }
      out["lineages"].push_back(entry);
    }
    return PrintJson(out);
  }
  std::ostringstream human;
  if (result->lineages.empty()) human << "no review histories on " << result->remote << "\n";
  for (const auto& l : result->lineages) {
    human << l.lineage << "  " << l.tip << "  ";
    if (l.verified) {
      human << l.state.name() << "  verified\n";
    } else {
      human << "NOT VERIFIED: " << CodeName(l.error.code()) << ": " << l.error.message() << "\n";
    }
  }
  PrintHuman(human.str());
  return 0;
}

}  // namespace

void DefineFetch(CLI::App* review, const Verb& verb, Invocation* in) {
  FetchOptions* o = in->Hold<FetchOptions>();
  Command fetch = AddCommand(review, verb, in);
  fetch.AddOption("--remote", &o->remote, "The git remote (default: origin)");
  fetch.OnParsed([in, o] { in->Choose([in, o] { return RunFetch(in->common, *o); }); });
}

}  // namespace gentle::cli
