// review revise.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/render.h"
#include "transaction/revise.h"

namespace gentle::cli {

int RunRevise(const CommonOptions& common, const LifecycleOptions& o) {
  auto result = transaction::Revise({common.cwd, o.lineage, o.expected_revision, o.context});
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::ReviseResult& r = *result;
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-revise/v1";
    out["lineage"] = r.lineage;
    out["previous_revision"] = r.previous_revision;
    out["revision"] = r.revision;
    out["previous_state"] = r.previous_state;
    out["state"] = r.state;
    out["round"] = r.round;
    out["target_identity"] = r.target_identity;
    out["changed_path_count"] = r.changed_path_count;
    return PrintJson(out);
  }
  std::cout << "round " << r.round << " of " << r.lineage << " (" << r.state << ", "
            << r.changed_path_count << " changed path" << (r.changed_path_count == 1 ? "" : "s")
            << ")\n  revision: " << r.revision << "\n";
  return 0;
}

}  // namespace gentle::cli
