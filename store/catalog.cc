#include "store/catalog.h"

#include <nlohmann/json.hpp>

#include "store/file_io.h"
#include "store/lineage_id.h"

namespace gentle::store {
namespace {

constexpr size_t kMaxTombstoneBytes = 4096;
constexpr size_t kMaxAuditBytes = 1u << 20;

std::optional<nlohmann::json> ParseJson(const std::string& text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string StringField(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

Result<std::vector<std::string>> ListLiveLineages(const StoreLayout& layout) {
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), layout.v2_dir()));
  auto names = ListDirectory(layout.v2_dir());
  if (!names.ok()) {
    if (names.status().code() == Code::kNotFound) return std::vector<std::string>();
    return names.status();
  }
  std::vector<std::string> out;
  for (const std::string& name : *names) {
    // Not only directories: a symlink or a file under a lineage's name is listed too, so its
    // reader refuses it as corrupted instead of the lineage silently disappearing.
    if (IsValidLineageId(name)) out.push_back(name);
  }
  return out;
}

Result<std::optional<Tombstone>> FindTombstone(const StoreLayout& layout,
                                               const std::string& lineage) {
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), layout.tombstone_dir()));
  auto names = ListDirectory(layout.tombstone_dir());
  if (!names.ok()) {
    if (names.status().code() == Code::kNotFound) return std::optional<Tombstone>();
    return names.status();
  }
  for (const std::string& name : *names) {
    const std::string path = layout.tombstone_dir() + "/" + name;
    auto bytes = ReadFileLimited(path, kMaxTombstoneBytes);
    // A symlink, a directory or an oversized file cannot be attributed to a lineage: fail closed.
    if (!bytes.ok()) return bytes.status();
    auto doc = ParseJson(*bytes);
    if (!doc || !doc->is_object()) continue;
    if (StringField(*doc, "schema") != "gentle-ai.review-terminal-consumption/v1") continue;
    if (StringField(*doc, "lineage") != lineage) continue;
    return std::optional<Tombstone>(
        Tombstone{path, lineage, StringField(*doc, "repository"), StringField(*doc, "target")});
  }
  return std::optional<Tombstone>();
}

Result<std::optional<std::string>> FindQuarantineRecord(const StoreLayout& layout,
                                                        const std::string& lineage) {
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), layout.quarantine_dir()));
  auto names = ListDirectory(layout.quarantine_dir());
  if (!names.ok()) {
    if (names.status().code() == Code::kNotFound) return std::optional<std::string>();
    return names.status();
  }
  const std::string prefix = lineage + "-";
  std::optional<std::string> found;
  for (const std::string& name : *names) {
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string path = layout.quarantine_dir() + "/" + name + "/reclaim-record.json";
    GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), path));
    auto bytes = ReadFileLimited(path, kMaxAuditBytes);
    if (!bytes.ok() && bytes.status().code() == Code::kNotFound) continue;  // prepared, no record
    if (!bytes.ok()) return bytes.status();
    auto doc = ParseJson(*bytes);
    if (!doc || !doc->is_object() || StringField(*doc, "lineage_id") != lineage) continue;
    found = path;
  }
  return found;
}

Status ClassifyAbsent(const StoreLayout& layout, const std::string& lineage) {
  GENTLE_ASSIGN_OR_RETURN(auto tombstone, FindTombstone(layout, lineage));
  if (tombstone) {
    return Status(Code::kConsumed, "lineage " + lineage + " was approved and burned")
        .WithLineage(lineage)
        .WithDetail("tombstone", tombstone->file);
  }
  GENTLE_ASSIGN_OR_RETURN(auto audit, FindQuarantineRecord(layout, lineage));
  if (audit) {
    return Status(Code::kRetired,
                  "lineage " + lineage + " was abandoned or reclaimed; see " + *audit)
        .WithLineage(lineage)
        .WithDetail("audit_record", *audit);
  }
  return Status(Code::kNotFound, "no lineage " + lineage + " in this repository's store")
      .WithLineage(lineage);
}

}  // namespace gentle::store
