// Quarantine audit records, <root>/quarantine/<lineage>-<random>/reclaim-record.json (gentle-ai's
// CompactReclaimRecord; docs/format.md).
//
// Written with two-space indentation and a trailing newline, members in gentle-ai's order:
// schema, status, lineage_id, reason, actor, reclaimed_at, source_path, quarantine_path, residue,
// then optional extras (abandon adds `abandonment`). `status` is `prepared` while the entry is
// being moved and `committed` once `residue/` holds the former lineage directory. ParseAuditRecord
// reads what the index and the classification need and tolerates unknown members.
#ifndef GENTLE_STORE_AUDIT_RECORD_H_
#define GENTLE_STORE_AUDIT_RECORD_H_

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "store/index/index_db.h"
#include "store/layout.h"
#include "store/status.h"

namespace gentle::store {

inline constexpr std::string_view kAuditSchema = "gentle-ai.review-reclaim-record/v1";
inline constexpr std::string_view kAuditFileName = "reclaim-record.json";
inline constexpr size_t kMaxAuditBytes = 1u << 20;

struct AuditRecord {
  index::RowStatus status = index::RowStatus::kPrepared;  // "prepared" | "committed"
  std::string lineage_id;
  std::string reason;
  std::string actor;
  std::string reclaimed_at;
  std::string source_path;
  std::string quarantine_path;
  std::vector<std::string> residue;
};

std::string AuditPath(const StoreLayout& layout, std::string_view quarantine_dir);
std::string ResiduePath(const StoreLayout& layout, std::string_view quarantine_dir);

// The file bytes; `extra` members (an object, may be null) follow the fixed ones.
std::string EncodeAuditRecord(const AuditRecord& record, const nlohmann::ordered_json* extra);

// Strict (store/strict_json.h: no key twice, no trailing data, UTF-8, nesting bounded); a member it
// reads that is not a string (`residue`: not an array of strings) is kCorrupted.
Result<AuditRecord> ParseAuditRecord(std::string_view bytes);
// Reads <quarantine>/<dir>/reclaim-record.json. kNotFound when absent.
Result<AuditRecord> LoadAuditRecord(const StoreLayout& layout, std::string_view quarantine_dir);

// The index row of an audit record in `quarantine_dir` (its status taken from the file).
index::QuarantineRow QuarantineRowOf(const StoreLayout& layout, std::string_view quarantine_dir,
                                     const AuditRecord& record);

}  // namespace gentle::store

#endif  // GENTLE_STORE_AUDIT_RECORD_H_
