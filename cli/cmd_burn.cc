// review burn.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/render.h"
#include "transaction/burn.h"

namespace gentle::cli {

int RunBurn(const CommonOptions& common, const LifecycleOptions& o) {
  auto result =
      transaction::Burn({common.cwd, o.lineage, o.token, o.expected_revision.value_or("")});
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::BurnResult& r = *result;
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-burn/v1";
    out["lineage"] = r.lineage;
    out["state"] = "consumed";
    out["revision"] = r.revision;
    out["target_identity"] = r.target_identity;
    out["repository"] = r.repository;
    out["tombstone"] = r.tombstone;
    out["original_worktree"] = r.original_worktree;
    return PrintJson(out);
  }
  std::cout << "burned " << r.lineage << "\n  tombstone: " << r.tombstone << "\n";
  return 0;
}

}  // namespace gentle::cli
