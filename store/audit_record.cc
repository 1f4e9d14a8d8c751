#include "store/audit_record.h"

#include <nlohmann/json.hpp>
#include <optional>

#include "store/file_io.h"
#include "store/go_marshal.h"
#include "store/json_member.h"
#include "store/lineage_id.h"
#include "store/strict_json.h"

namespace gentle::store {
namespace {

// Gentle-ai's audit records are flat but for `residue` and the members it adds; a reader's stack
// bounds anything deeper.
constexpr size_t kMaxAuditDepth = 64;

}  // namespace

std::string AuditPath(const StoreLayout& layout, std::string_view quarantine_dir) {
  return layout.quarantine_dir() + "/" + std::string(quarantine_dir) + "/" +
         std::string(kAuditFileName);
}

std::string ResiduePath(const StoreLayout& layout, std::string_view quarantine_dir) {
  return layout.quarantine_dir() + "/" + std::string(quarantine_dir) + "/residue";
}

std::string EncodeAuditRecord(const AuditRecord& r, const nlohmann::ordered_json* extra) {
  nlohmann::ordered_json j;
  j["schema"] = kAuditSchema;
  j["status"] = std::string(index::RowStatusName(r.status));
  j["lineage_id"] = r.lineage_id;
  j["reason"] = r.reason;
  j["actor"] = r.actor;
  j["reclaimed_at"] = r.reclaimed_at;
  j["source_path"] = r.source_path;
  j["quarantine_path"] = r.quarantine_path;
  j["residue"] = r.residue;
  if (extra != nullptr && extra->is_object()) {
    for (const auto& item : extra->items()) j[item.key()] = item.value();
  }
  return MarshalIndent(j) + "\n";
}

Result<AuditRecord> ParseAuditRecord(std::string_view bytes) {
  auto corrupted = [](const std::string& why) {
    return Status(Code::kCorrupted, "quarantine audit record " + why);
  };
  if (bytes.size() > kMaxAuditBytes) return corrupted("exceeds 1 MiB");
  GENTLE_ASSIGN_OR_RETURN(nlohmann::json doc,
                          ParseStrictJsonFile(bytes, kMaxAuditDepth, "quarantine audit record"));
  if (!doc.is_object()) return corrupted("is not an object");
  // A member we read is a string (residue: an array of strings) or absent; anything else would be
  // read as something it does not say.
  std::string wrong_type;
  auto text = [&](const char* key) { return StringMember(doc, key, &wrong_type); };
  if (text("schema") != kAuditSchema) return corrupted("has a foreign schema");
  AuditRecord r;
  const std::string status = text("status");
  r.lineage_id = text("lineage_id");
  r.reason = text("reason");
  r.actor = text("actor");
  r.reclaimed_at = text("reclaimed_at");
  r.source_path = text("source_path");
  r.quarantine_path = text("quarantine_path");
  if (auto it = doc.find("residue"); it != doc.end()) {
    const nlohmann::json empty = nlohmann::json::array();
    if (!it->is_array()) wrong_type = "residue";
    for (const auto& name : it->is_array() ? *it : empty) {
      if (!name.is_string()) {
        wrong_type = "residue";
        break;
      }
      r.residue.push_back(name.get<std::string>());
    }
  }
  if (!wrong_type.empty()) return corrupted("has a \"" + wrong_type + "\" of the wrong type");
  const std::optional<index::RowStatus> parsed = index::ParseRowStatus(status);
  if (!parsed) return corrupted("has an unknown status");
  r.status = *parsed;
  if (!IsValidLineageId(r.lineage_id)) return corrupted("names an invalid lineage id");
  return r;
}

Result<AuditRecord> LoadAuditRecord(const StoreLayout& layout, std::string_view quarantine_dir) {
  const std::string path = AuditPath(layout, quarantine_dir);
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), path));
  GENTLE_ASSIGN_OR_RETURN(std::string bytes, ReadFileLimited(path, kMaxAuditBytes));
  return ParseAuditRecord(bytes);
}

index::QuarantineRow QuarantineRowOf(const StoreLayout& layout, std::string_view quarantine_dir,
                                     const AuditRecord& record) {
  index::QuarantineRow row;
  row.quarantine_dir = std::string(quarantine_dir);
  row.lineage_id = record.lineage_id;
  row.audit_path = AuditPath(layout, quarantine_dir);
  row.reason = record.reason;
  row.actor = record.actor;
  row.reclaimed_at = record.reclaimed_at;
  row.status = record.status;
  return row;
}

}  // namespace gentle::store
