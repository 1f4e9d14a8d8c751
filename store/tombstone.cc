#include "store/tombstone.h"

#include <nlohmann/json.hpp>

#include "store/digests.h"
#include "store/file_io.h"
#include "store/go_marshal.h"
#include "store/json_member.h"
#include "store/lineage_id.h"
#include "store/strict_json.h"

namespace gentle::store {

std::string TombstoneKey(std::string_view repo_key, std::string_view target_identity) {
  std::string name = TombstoneFileName(repo_key, target_identity);
  return name.substr(0, name.size() - std::string_view(".json").size());
}

std::string TombstonePath(const StoreLayout& layout, std::string_view key) {
  return layout.tombstone_dir() + "/" + std::string(key) + ".json";
}

std::string EncodeTombstone(std::string_view repo_key, std::string_view target_identity,
                            std::string_view lineage) {
  nlohmann::ordered_json j;
  j["schema"] = kTombstoneSchema;
  j["repository"] = repo_key;
  j["target"] = target_identity;
  j["lineage"] = lineage;
  return MarshalCompact(j);
}

Result<index::TombstoneRow> ParseTombstone(std::string_view bytes, std::string_view key) {
  auto corrupted = [&](const std::string& why) {
    return Status(Code::kCorrupted, "tombstone " + std::string(key) + " " + why);
  };
  if (bytes.size() > kMaxTombstoneBytes) return corrupted("exceeds 4096 bytes");
  // A tombstone is one flat object: nothing in it nests.
  GENTLE_ASSIGN_OR_RETURN(nlohmann::json doc,
                          ParseStrictJsonFile(bytes, 1, "tombstone " + std::string(key)));
  if (!doc.is_object() || doc.size() != 4) return corrupted("is not a tombstone object");
  for (const char* field : {"schema", "repository", "target", "lineage"}) {
    if (TypedMember(doc, field, nlohmann::json::value_t::string) == nullptr) {
      return corrupted(std::string("lacks \"") + field + "\"");
    }
  }
  index::TombstoneRow row;
  row.key = std::string(key);
  row.lineage_id = StringMember(doc, "lineage");
  row.target_identity = StringMember(doc, "target");
  row.repository = StringMember(doc, "repository");
  row.status = index::RowStatus::kCommitted;
  if (StringMember(doc, "schema") != kTombstoneSchema) return corrupted("has a foreign schema");
  if (!IsSha256Id(row.repository) || !IsSha256Id(row.target_identity)) {
    return corrupted("has a malformed repository or target");
  }
  if (!IsValidLineageId(row.lineage_id)) return corrupted("names an invalid lineage id");
  if (TombstoneKey(row.repository, row.target_identity) != key) {
    return corrupted("file name does not bind its repository and target");
  }
  return row;
}

Result<index::TombstoneRow> LoadTombstone(const StoreLayout& layout, std::string_view key) {
  const std::string path = TombstonePath(layout, key);
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), path));
  GENTLE_ASSIGN_OR_RETURN(std::string bytes, ReadFileLimited(path, kMaxTombstoneBytes));
  return ParseTombstone(bytes, key);
}

Status RefuseBurnedCandidate(const StoreLayout& layout, std::string_view worktree_root,
                             std::string_view target_identity, const std::string& lineage) {
  const std::string path =
      layout.tombstone_dir() + "/" + TombstoneFileName(RepoKey(worktree_root), target_identity);
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), path));
  if (KindOf(path) == PathKind::kMissing) return Status::Ok();
  return Status(Code::kConsumed, "this candidate was approved and its acknowledgement burned")
      .WithLineage(lineage)
      .WithDetail(DetailKey::kTargetIdentity, std::string(target_identity));
}

}  // namespace gentle::store
