// review start.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/render.h"
#include "transaction/start.h"

namespace gentle::cli {

int RunStart(const CommonOptions& common, const transaction::Selector& selector,
             const transaction::ContextFlags& context) {
  auto result = transaction::Start({common.cwd, selector, context});
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::StartResult& r = *result;
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-start/v1";
    out["lineage"] = r.lineage;
    out["revision"] = r.revision;
    out["target_identity"] = r.target_identity;
    out["state"] = r.state;
    out["kind"] = r.kind;
    out["changed_path_count"] = r.changed_path_count;
    out["created"] = r.created;
    return PrintJson(out);
  }
  std::cout << (r.created ? "started " : "already started ") << r.lineage << "\n"
            << "  revision:        " << r.revision << "\n"
            << "  target identity: " << r.target_identity << "\n"
            << "  state:           " << r.state << "\n"
            << "  kind:            " << r.kind << "\n"
            << "  changed paths:   " << r.changed_path_count << "\n";
  return 0;
}

}  // namespace gentle::cli
