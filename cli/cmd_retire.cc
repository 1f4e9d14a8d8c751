// review abandon and review reclaim: both retire a lineage into quarantine.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/render.h"
#include "transaction/retire.h"

namespace gentle::cli {
namespace {

int PrintRetired(const CommonOptions& common, const transaction::RetireResult& r,
                 const char* schema) {
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = schema;
    out["operation"] = r.operation;
    out["lineage"] = r.lineage;
    out["state"] = "retired";
    out["audit_record"] = r.audit_record;
    out["quarantine_path"] = r.quarantine_path;
    out["reason"] = r.reason;
    out["actor"] = r.actor;
    out["reclaimed_at"] = r.reclaimed_at;
    out["revision"] = NullIfEmpty(r.revision);
    return PrintJson(out);
  }
  std::cout << "retired " << r.lineage << "\n  audit record: " << r.audit_record << "\n";
  return 0;
}

}  // namespace

int RunAbandon(const CommonOptions& common, const LifecycleOptions& o) {
  auto result =
      transaction::Abandon({common.cwd, o.lineage, o.reason, o.actor, o.expected_revision});
  if (!result.ok()) return ReportError(result.status(), common.json);
  return PrintRetired(common, *result, "gentle-ai.review-abandon/v1");
}

int RunReclaim(const CommonOptions& common, const LifecycleOptions& o) {
  auto result = transaction::Reclaim({common.cwd, o.lineage, o.reason, o.actor, std::nullopt});
  if (!result.ok()) return ReportError(result.status(), common.json);
  return PrintRetired(common, *result, "gentle-ai.review-reclaim/v1");
}

}  // namespace gentle::cli
