// review abandon and review reclaim: both retire a lineage into quarantine.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/render.h"
#include "cli/verb.h"
#include "transaction/abandon_reason.h"
#include "transaction/retire.h"

namespace gentle::cli {
namespace {

// abandon's and reclaim's options (reclaim takes no --expected-revision).
struct RetireOptions {
  std::string lineage;
  std::string reason;
  std::string actor;
  std::optional<std::string> expected_revision;
  std::string revision_text;  // as parsed
};

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

int RunAbandon(const CommonOptions& common, const RetireOptions& o) {
  auto result =
      transaction::Abandon({common.cwd, o.lineage, o.reason, o.actor, o.expected_revision});
  if (!result.ok()) return ReportError(result.status(), common.json);
  return PrintRetired(common, *result, "gentle-ai.review-abandon/v1");
}

int RunReclaim(const CommonOptions& common, const RetireOptions& o) {
  auto result = transaction::Reclaim({common.cwd, o.lineage, o.reason, o.actor, std::nullopt});
  if (!result.ok()) return ReportError(result.status(), common.json);
  return PrintRetired(common, *result, "gentle-ai.review-reclaim/v1");
}

}  // namespace

void DefineAbandon(CLI::App* review, const Verb& verb, Invocation* in) {
  RetireOptions* o = in->Hold<RetireOptions>();
  Command abandon = AddCommand(review, verb, in);
  AddLineageFlag(abandon, &o->lineage);
  std::string reasons;  // "operator_disposition | retired_schema"
  for (transaction::AbandonReason reason : transaction::kAllAbandonReasons) {
    reasons += (reasons.empty() ? "" : " | ") + std::string(transaction::AbandonReasonName(reason));
  }
  abandon.AddOption("--reason", &o->reason, reasons).Required();
  abandon.AddOption("--actor", &o->actor, "Who decides").Required();
  AddRevisionFlag(abandon, &o->revision_text, false);
  abandon.OnParsed([in, o, abandon] {
    if (Given(abandon, "--expected-revision")) o->expected_revision = o->revision_text;
    in->Choose([in, o] { return RunAbandon(in->common, *o); });
  });
}

void DefineReclaim(CLI::App* review, const Verb& verb, Invocation* in) {
  RetireOptions* o = in->Hold<RetireOptions>();
  Command reclaim = AddCommand(review, verb, in);
  AddLineageFlag(reclaim, &o->lineage);
  reclaim.AddOption("--reason", &o->reason, "Why").Required();
  reclaim.AddOption("--actor", &o->actor, "Who decides").Required();
  reclaim.OnParsed([in, o] { in->Choose([in, o] { return RunReclaim(in->common, *o); }); });
}

}  // namespace gentle::cli
