#include "transaction/quarantine_move.h"

#include "store/fault_point.h"
#include "store/file_io.h"
#include "store/file_modes.h"
#include "store/file_write.h"
#include "store/index/index_db.h"
#include "store/secret.h"
#include "store/store_scan.h"

namespace gentle::transaction {
namespace {

void Fault(std::string_view verb, std::string_view step) {
  if (!verb.empty()) store::FaultPoint(std::string(verb) + ":" + std::string(step));
}

}  // namespace

Result<std::string> FreshQuarantineName(const store::StoreLayout& layout,
                                        const std::string& lineage) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    GENTLE_ASSIGN_OR_RETURN(std::string hex, store::RandomHex(4));
    const std::string name = lineage + "-" + std::to_string(std::stoul(hex, nullptr, 16));
    if (store::KindOf(layout.quarantine_dir() + "/" + name) == store::PathKind::kMissing) {
      return name;
    }
  }
  return Status(Code::kInternal, "cannot choose a fresh quarantine directory name");
}

Result<QuarantineEntry> PrepareQuarantine(MutationScope* scope, store::AuditRecord* audit,
                                          const store::RecordView* prepared_lineage,
                                          const nlohmann::ordered_json* extra,
                                          std::string_view fault_verb) {
  const store::StoreLayout& layout = scope->layout;
  QuarantineEntry entry;
  GENTLE_ASSIGN_OR_RETURN(entry.name, FreshQuarantineName(layout, audit->lineage_id));
  entry.dir = layout.quarantine_dir() + "/" + entry.name;
  entry.audit_path = store::AuditPath(layout, entry.name);
  audit->status = store::index::RowStatus::kPrepared;
  audit->quarantine_path = entry.dir;

  GENTLE_RETURN_IF_ERROR(scope->index->WriteTransaction([&]() -> Status {
    GENTLE_RETURN_IF_ERROR(
        scope->index->UpsertQuarantine(store::QuarantineRowOf(layout, entry.name, *audit)));
    if (prepared_lineage == nullptr) return Status::Ok();
    return scope->index->UpsertLineage(
        store::LineageRowOf(*prepared_lineage, store::index::RowStatus::kPrepared));
  }));
  Fault(fault_verb, "index-prepared");
  GENTLE_RETURN_IF_ERROR(store::EnsureDirectory(layout.common_dir(), layout.quarantine_dir(),
                                                store::kQuarantineDirMode));
  GENTLE_RETURN_IF_ERROR(
      store::EnsureDirectory(layout.common_dir(), entry.dir, store::kQuarantineDirMode));
  Fault(fault_verb, "quarantine-dir");
  GENTLE_RETURN_IF_ERROR(store::WriteFileAtomic(
      entry.audit_path, store::EncodeAuditRecord(*audit, extra), store::kRecordFileMode));
  Fault(fault_verb, "audit-prepared");
  return entry;
}

std::string CommittedAuditBytes(store::AuditRecord audit, const nlohmann::ordered_json* extra) {
  audit.status = store::index::RowStatus::kCommitted;
  return store::EncodeAuditRecord(audit, extra);
}

Status CommitQuarantineAudit(const QuarantineEntry& entry, const std::string& committed_bytes,
                             store::AuditRecord* audit) {
  audit->status = store::index::RowStatus::kCommitted;
  return store::WriteFileAtomic(entry.audit_path, committed_bytes, store::kRecordFileMode);
}

}  // namespace gentle::transaction
