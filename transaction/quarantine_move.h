// The quarantine entry a lineage moves into when it is retired (abandon, reclaim, and import of an
// abandon tip; docs/format.md, "Layout"; docs/lifecycle.md, "The crash-safe protocol and
// recovery"): one writer of its steps, in order.
//
//   PrepareQuarantine  a fresh entry name `<lineage>-<random digits>`; the index rows prepared
//                      (the entry's, and the lineage's when it has a local record); the quarantine
//                      directory and the entry's; the audit record written with status
//                      `prepared`.
//   (the caller moves or stages the residue into place: residue/ existing is what recovery
//    reads as the point of no return)
//   CommitQuarantineAudit  the audit record rewritten with status `committed`.
//
// Caller holds the writer lock with the index open (MutationScope). With a non-empty
// `fault_verb`, the fault points `<verb>:index-prepared`, `<verb>:quarantine-dir` and
// `<verb>:audit-prepared` are passed after each step (the crash sweep's).
#ifndef GENTLE_TRANSACTION_QUARANTINE_MOVE_H_
#define GENTLE_TRANSACTION_QUARANTINE_MOVE_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "store/audit_record.h"
#include "store/record.h"
#include "store/status.h"
#include "transaction/mutation.h"

namespace gentle::transaction {

struct QuarantineEntry {
  std::string name;        // <lineage>-<random digits>
  std::string dir;         // the entry's directory
  std::string audit_path;  // its reclaim-record.json
};

// A fresh quarantine directory name "<lineage>-<random digits>" (like Go's os.MkdirTemp).
Result<std::string> FreshQuarantineName(const store::StoreLayout& layout,
                                        const std::string& lineage);

// `audit` has every member but its status and quarantine path, which this sets (`prepared`);
// `prepared_lineage` (may be null) is the local record whose index row is prepared with the
// entry's; `extra` (may be null) the audit record's members beyond store::AuditRecord's.
Result<QuarantineEntry> PrepareQuarantine(MutationScope* scope, store::AuditRecord* audit,
                                          const store::RecordView* prepared_lineage,
                                          const nlohmann::ordered_json* extra,
                                          std::string_view fault_verb);

// The audit record's bytes with status `committed` (what the history commit of an abandon
// carries, and what CommitQuarantineAudit writes).
std::string CommittedAuditBytes(store::AuditRecord audit, const nlohmann::ordered_json* extra);

// Rewrites the entry's audit record as `committed_bytes` (CommittedAuditBytes) and sets `audit`'s
// status to `committed`.
Status CommitQuarantineAudit(const QuarantineEntry& entry, const std::string& committed_bytes,
                             store::AuditRecord* audit);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_QUARANTINE_MOVE_H_
