// ABANDON and RECLAIM: retire a lineage into quarantine (docs/lifecycle.md, "review abandon" and
// "review reclaim"; the protocol is gentle-ai's quarantineCompactStoreEntry, so either tool reads
// the other's quarantine entries).
//
//   abandon  a complete lineage (a record) that is not terminal (approved, escalated, invalidated)
//            and not historical-compat; reason operator_disposition | retired_schema
//            (transaction/abandon_reason.h); optional compare-and-swap on the revision. The audit
//            record carries an `abandonment` member.
//   reclaim  an incomplete entry: a lineage directory holding no record (residue another tool
//            left, or a crash). A complete entry is refused with `wrong_state`, naming `review
//            abandon`. Recovery runs first, as for every writer: an interrupted start of this tool
//            is undone by it, and reclaim then answers not_found (nothing left to reclaim).
//
// Protocol, each step durable and followed by a fault point <verb>:<step>:
//   index-prepared   quarantine row, status prepared
//   quarantine-dir   <root>/quarantine/<lineage>-<random>/ created
//   audit-prepared   reclaim-record.json written with status prepared
//   moved            v2/<lineage> renamed to <qdir>/residue (the point of no return)
//   audit-committed  reclaim-record.json rewritten with status committed
//   unpinned         refs/gentle-ai/reviews/<lineage> removed
//   index-committed  quarantine row committed, catalog row deleted
// Afterwards the lineage classifies `retired`, pointing at the audit record.
#ifndef GENTLE_TRANSACTION_RETIRE_H_
#define GENTLE_TRANSACTION_RETIRE_H_

#include <optional>
#include <string>

#include "store/layout.h"
#include "store/status.h"

namespace gentle::transaction {

struct RetireRequest {
  std::string cwd = ".";
  std::string lineage;
  std::string reason;
  std::string actor;
  std::optional<std::string> expected_revision;  // abandon only
};

struct RetireResult {
  std::string lineage;
  std::string operation;  // "review/abandon" | "review/reclaim"
  std::string audit_record;
  std::string quarantine_path;
  std::string revision;  // abandon: the abandoned record's revision
  std::string reason;
  std::string actor;
  std::string reclaimed_at;
};

Result<RetireResult> Abandon(const RetireRequest& request);

Result<RetireResult> Reclaim(const RetireRequest& request);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_RETIRE_H_
