#include "store/catalog.h"

#include <dirent.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "store/audit_record.h"
#include "store/file_io.h"
#include "store/index/index_reader.h"
#include "store/lineage_id.h"
#include "store/time_order.h"
#include "store/tombstone.h"

namespace gentle::store {

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

Result<std::vector<std::string>> ListIncompleteEntries(const StoreLayout& layout) {
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), layout.v2_dir()));
  DIR* handle = opendir(layout.v2_dir().c_str());
  if (handle == nullptr) {
    if (errno == ENOENT) return std::vector<std::string>();
    return Status(Code::kCorrupted, "cannot list " + layout.v2_dir() + ": " + std::strerror(errno));
  }
  std::vector<std::string> out;
  while (const dirent* entry = readdir(handle)) {
    const std::string name = entry->d_name;
    if (!IsValidLineageId(name) || (entry->d_type != DT_DIR && entry->d_type != DT_UNKNOWN)) {
      continue;
    }
    // One lstat per lineage; the directory's own kind only for the rare entry without a record.
    if (KindOf(layout.record_path(name)) != PathKind::kMissing ||
        KindOf(layout.lineage_dir(name)) != PathKind::kDirectory) {
      continue;
    }
    out.push_back(name);
  }
  closedir(handle);
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::optional<std::string>> FindTombstoneFile(const StoreLayout& layout,
                                                     const std::string& lineage) {
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), layout.tombstone_dir()));
  auto names = ListDirectory(layout.tombstone_dir());
  if (!names.ok()) {
    if (names.status().code() == Code::kNotFound) return std::optional<std::string>();
    return names.status();
  }
  for (const std::string& name : *names) {
    if (name.size() != 69 || name.compare(64, 5, ".json") != 0) continue;
    auto row = LoadTombstone(layout, name.substr(0, 64));
    // A tombstone that cannot be read could be this lineage's: the answer is `corrupted`, not a
    // silent `not_found`.
    if (!row.ok() && row.status().code() == Code::kNotFound) continue;
    if (!row.ok()) return Status(Code::kCorrupted, row.status().message()).WithLineage(lineage);
    if (row->lineage_id != lineage) continue;
    return std::optional<std::string>(TombstonePath(layout, row->key));
  }
  return std::optional<std::string>();
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
  std::string newest;
  for (const std::string& name : *names) {
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    auto record = LoadAuditRecord(layout, name);
    // No audit record yet: an abandon that stopped before writing it. Any other failure could hide
    // this lineage's retirement: `corrupted`.
    if (!record.ok() && record.status().code() == Code::kNotFound) continue;
    if (!record.ok()) {
      return Status(Code::kCorrupted, record.status().message()).WithLineage(lineage);
    }
    if (record->lineage_id != lineage) continue;
    // A prepared record counts only once its residue is in place (gentle-ai's rule).
    if (record->status != index::RowStatus::kCommitted &&
        KindOf(ResiduePath(layout, name)) != PathKind::kDirectory) {
      continue;
    }
    const std::string order = TimeOrderKey(record->reclaimed_at);
    if (!found || order >= newest) {
      found = AuditPath(layout, name);
      newest = order;
    }
  }
  return found;
}

namespace {

Status NotFound(const std::string& lineage) {
  return Status(Code::kNotFound, "no lineage " + lineage + " in this repository's store")
      .WithLineage(lineage);
}

// Two keyed lookups; a prepared row (a mutation in flight or interrupted) counts only if the files
// show that the mutation took effect.
// The evidence file an index row points at must still be a regular file reached without symlinks;
// otherwise the store was tampered with and the answer is `corrupted`, not the row's word.
Status CheckEvidenceFile(const StoreLayout& layout, const std::string& path,
                         const std::string& lineage) {
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), path));
  const PathKind kind = KindOf(path);
  if (kind != PathKind::kFile && kind != PathKind::kMissing) {
    return Status(Code::kCorrupted, "store evidence is not a regular file: " + path)
        .WithLineage(lineage);
  }
  return Status::Ok();
}

// A present evidence file must parse strictly and name `lineage`: a damaged one is `corrupted`,
// never the index row's word.
template <typename Parsed>
Status CheckEvidenceNames(const Result<Parsed>& parsed, const std::string& lineage_in_file,
                          const std::string& lineage, const std::string& path) {
  if (!parsed.ok()) {
    if (parsed.status().code() == Code::kNotFound) return Status::Ok();
    return Status(Code::kCorrupted, parsed.status().message() + ": " + path).WithLineage(lineage);
  }
  if (lineage_in_file != lineage) {
    return Status(Code::kCorrupted, "store evidence names another lineage: " + path)
        .WithLineage(lineage);
  }
  return Status::Ok();
}

// kConsumed when the index holds an effective tombstone for `lineage` (its evidence file checked),
// kNotFound when it holds none.
Status TombstoneFromIndex(const StoreLayout& layout, index::IndexDb& db,
                          const std::string& lineage) {
  GENTLE_ASSIGN_OR_RETURN(auto tombstone, db.FindTombstoneByLineage(lineage));
  if (tombstone && index::TombstoneEffective(layout, *tombstone)) {
    const std::string path = TombstonePath(layout, tombstone->key);
    GENTLE_RETURN_IF_ERROR(CheckEvidenceFile(layout, path, lineage));
    auto file = LoadTombstone(layout, tombstone->key);
    GENTLE_RETURN_IF_ERROR(
        CheckEvidenceNames(file, file.ok() ? file->lineage_id : "", lineage, path));
    return ConsumedAnswer(lineage, path);
  }
  return NotFound(lineage);
}

// The same answer from the tombstone files alone (a scan: stores without a usable index).
Status TombstoneFromFiles(const StoreLayout& layout, const std::string& lineage) {
  GENTLE_ASSIGN_OR_RETURN(auto tombstone, FindTombstoneFile(layout, lineage));
  if (tombstone) return ConsumedAnswer(lineage, *tombstone);
  return NotFound(lineage);
}

Status ClassifyFromIndex(const StoreLayout& layout, index::IndexDb& db,
                         const std::string& lineage) {
  if (Status burned = TombstoneFromIndex(layout, db, lineage); burned.code() != Code::kNotFound) {
    return burned;
  }
  GENTLE_ASSIGN_OR_RETURN(auto audit, db.FindQuarantineByLineage(lineage));
  if (audit && index::QuarantineEffective(layout, *audit)) {
    GENTLE_RETURN_IF_ERROR(CheckEvidenceFile(layout, audit->audit_path, lineage));
    auto file = LoadAuditRecord(layout, audit->quarantine_dir);
    GENTLE_RETURN_IF_ERROR(
        CheckEvidenceNames(file, file.ok() ? file->lineage_id : "", lineage, audit->audit_path));
    return RetiredAnswer(lineage, audit->audit_path);
  }
  // No row proves a burn or a retirement, yet the index still has a row for this lineage, whose
  // record is gone: the index is behind the files (a copy of it was put back, or another tool
  // burned or retired the lineage). The files are the truth, so they answer.
  GENTLE_ASSIGN_OR_RETURN(auto stale, db.FindLineage(lineage));
  if (stale) return ClassifyAbsentFromFiles(layout, lineage);
  return NotFound(lineage);
}

}  // namespace

Status ConsumedAnswer(const std::string& lineage, const std::string& tombstone) {
  return Status(Code::kConsumed, "lineage " + lineage + " was approved and burned")
      .WithLineage(lineage)
      .WithDetail(DetailKey::kTombstone, tombstone);
}

Status RetiredAnswer(const std::string& lineage, const std::string& audit_record) {
  return Status(Code::kRetired,
                "lineage " + lineage + " was abandoned or reclaimed; see " + audit_record)
      .WithLineage(lineage)
      .WithDetail(DetailKey::kAuditRecord, audit_record);
}

bool MayHoldTombstones(const StoreLayout& layout) {
  const std::string dir = layout.tombstone_dir();
  const PathKind kind = KindOf(dir);
  if (kind == PathKind::kMissing) return false;
  if (kind != PathKind::kDirectory) return true;
  DIR* handle = opendir(dir.c_str());
  if (handle == nullptr) return true;
  bool any = false;
  while (const dirent* entry = readdir(handle)) {
    if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) {
      any = true;
      break;
    }
  }
  closedir(handle);
  return any;
}

Status ClassifyAbsent(const StoreLayout& layout, const std::string& lineage) {
  GENTLE_ASSIGN_OR_RETURN(
      std::unique_ptr<index::IndexDb> db,
      index::OpenIndexForReader(layout, index::IndexOptions::ReadUse::kLineageLookups));
  if (db) return ClassifyFromIndex(layout, *db, lineage);
  return ClassifyAbsentFromFiles(layout, lineage);
}

Status ClassifyRecordless(const StoreLayout& layout, const std::string& lineage) {
  Status absent = ClassifyAbsent(layout, lineage);
  if (absent.code() != Code::kNotFound ||
      KindOf(layout.lineage_dir(lineage)) == PathKind::kMissing) {
    return absent;
  }
  return Status(Code::kCorrupted,
                "lineage " + lineage +
                    " is an incomplete entry (a directory without a record): the next mutation "
                    "undoes an interrupted start; review reclaim retires any other")
      .WithLineage(lineage)
      .WithDetail(DetailKey::kDirectory, layout.lineage_dir(lineage));
}

Status FindBurnClaim(const StoreLayout& layout, const std::string& lineage) {
  GENTLE_ASSIGN_OR_RETURN(
      std::unique_ptr<index::IndexDb> db,
      index::OpenIndexForReader(layout, index::IndexOptions::ReadUse::kTombstoneLookup));
  if (db) return TombstoneFromIndex(layout, *db, lineage);
  return TombstoneFromFiles(layout, lineage);
}

Status ClassifyAbsentFromFiles(const StoreLayout& layout, const std::string& lineage) {
  if (Status burned = TombstoneFromFiles(layout, lineage); burned.code() != Code::kNotFound) {
    return burned;
  }
  GENTLE_ASSIGN_OR_RETURN(auto audit, FindQuarantineRecord(layout, lineage));
  if (audit) return RetiredAnswer(lineage, *audit);
  return NotFound(lineage);
}

}  // namespace gentle::store
