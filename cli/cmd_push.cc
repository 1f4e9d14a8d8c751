// review push.
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.h"
#include "cli/render.h"
#include "transaction/push.h"

namespace gentle::cli {

int RunPush(const CommonOptions& common, const RemoteOptions& options) {
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

}  // namespace gentle::cli
