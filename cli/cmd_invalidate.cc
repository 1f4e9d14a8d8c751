// review invalidate.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/render.h"
#include "transaction/invalidate.h"

namespace gentle::cli {

int RunInvalidate(const CommonOptions& common, const LifecycleOptions& o) {
  auto result =
      transaction::Invalidate({common.cwd, o.lineage, o.reason, o.actor, o.expected_revision});
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::InvalidateResult& r = *result;
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-invalidate/v1";
    out["lineage"] = r.lineage;
    out["state"] = r.state;
    out["previous_revision"] = r.previous_revision;
    out["revision"] = r.revision;
    return PrintJson(out);
  }
  std::cout << "invalidated " << r.lineage << "\n  revision: " << r.revision << "\n";
  return 0;
}

}  // namespace gentle::cli
