#include "store/store_scan.h"

#include "store/audit_record.h"
#include "store/file_io.h"
#include "store/lineage_id.h"
#include "store/tombstone.h"

namespace gentle::store {
namespace {

bool IsHexKey(std::string_view name) {
  if (name.size() != 64) return false;
  for (char c : name) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// Entries of `dir`, or none when it is absent.
Result<std::vector<std::string>> EntriesOf(const StoreLayout& layout, const std::string& dir) {
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), dir));
  auto names = ListDirectory(dir);
  if (!names.ok() && names.status().code() == Code::kNotFound) return std::vector<std::string>();
  return names;
}

Status ScanLineages(const StoreLayout& layout, StoreFiles* out) {
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> names, EntriesOf(layout, layout.v2_dir()));
  for (const std::string& name : names) {
    const std::string path = layout.v2_dir() + "/" + name;
    if (name == "LOCK" && KindOf(path) == PathKind::kFile) continue;
    if (!IsValidLineageId(name) || KindOf(path) != PathKind::kDirectory) {
      out->findings.push_back({"unexpected_entry", "", path, "not a lineage directory"});
      continue;
    }
    auto record = LoadRecord(layout, name);
    if (record.ok()) {
      out->rows.lineages.push_back(LineageRowOf(*record, RowStatus::kCommitted));
    } else if (record.status().code() == Code::kNotFound) {
      out->incomplete.push_back(name);
      out->findings.push_back(
          {"incomplete_entry", name, path, "lineage directory without a record (review reclaim)"});
    } else {
      out->findings.push_back(
          {"record_corrupted", name, layout.record_path(name), record.status().message()});
    }
  }
  return Status::Ok();
}

Status ScanTombstones(const StoreLayout& layout, StoreFiles* out) {
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> names,
                          EntriesOf(layout, layout.tombstone_dir()));
  for (const std::string& name : names) {
    const std::string path = layout.tombstone_dir() + "/" + name;
    const std::string key = name.size() > 5 ? name.substr(0, name.size() - 5) : "";
    if (name.compare(0, 8, ".atomic-") == 0) {
      out->findings.push_back({"unexpected_entry", "", path, "interrupted atomic write"});
      continue;
    }
    if (!IsHexKey(key) || name.substr(key.size()) != ".json") {
      out->findings.push_back({"unexpected_entry", "", path, "not a tombstone file name"});
      continue;
    }
    auto row = LoadTombstone(layout, key);
    if (!row.ok()) {
      out->findings.push_back({"tombstone_corrupted", "", path, row.status().message()});
      continue;
    }
    if (KindOf(layout.record_path(row->lineage_id)) != PathKind::kMissing) {
      out->findings.push_back({"tombstone_live_lineage", row->lineage_id, path,
                               "tombstone of a lineage whose record still exists"});
    }
    out->rows.tombstones.push_back(*row);
  }
  return Status::Ok();
}

Status ScanQuarantine(const StoreLayout& layout, StoreFiles* out) {
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> names,
                          EntriesOf(layout, layout.quarantine_dir()));
  for (const std::string& name : names) {
    const std::string path = layout.quarantine_dir() + "/" + name;
    if (KindOf(path) != PathKind::kDirectory) {
      out->findings.push_back({"unexpected_entry", "", path, "not a quarantine directory"});
      continue;
    }
    auto record = LoadAuditRecord(layout, name);
    if (!record.ok()) {
      out->findings.push_back({"quarantine_corrupted", "", path, record.status().message()});
      continue;
    }
    if (name.compare(0, record->lineage_id.size() + 1, record->lineage_id + "-") != 0) {
      out->findings.push_back({"quarantine_corrupted", record->lineage_id, path,
                               "directory name does not start with its lineage"});
      continue;
    }
    if (record->status == "prepared") {
      out->findings.push_back({"quarantine_prepared", record->lineage_id, path,
                               "interrupted abandon or reclaim (audit record still prepared)"});
    }
    out->rows.quarantine.push_back(QuarantineRowOf(layout, name, *record));
  }
  return Status::Ok();
}

}  // namespace

LineageRow LineageRowOf(const RecordView& record, RowStatus status) {
  LineageRow row;
  row.lineage_id = record.lineage_id;
  row.state = record.state;
  row.kind = record.initial_snapshot.kind;
  row.created_at = record.created_at;
  row.path_count = static_cast<int64_t>(record.initial_snapshot.paths.size());
  row.revision = record.revision;
  row.target_identity = record.current_snapshot.identity;
  row.status = status;
  return row;
}

Result<StoreFiles> ScanStoreFiles(const StoreLayout& layout) {
  StoreFiles out;
  GENTLE_RETURN_IF_ERROR(ScanLineages(layout, &out));
  GENTLE_RETURN_IF_ERROR(ScanTombstones(layout, &out));
  GENTLE_RETURN_IF_ERROR(ScanQuarantine(layout, &out));
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> trash, ResetTrashDirs(layout));
  for (const std::string& dir : trash) {
    out.findings.push_back({"reset_interrupted", "", dir, "interrupted review store reset"});
  }
  return out;
}

Result<std::vector<std::string>> ResetTrashDirs(const StoreLayout& layout) {
  std::vector<std::string> out;
  auto names = ListDirectory(layout.gentle_dir());
  if (!names.ok()) {
    if (names.status().code() == Code::kNotFound) return out;
    return names.status();
  }
  for (const std::string& name : *names) {
    if (name.compare(0, kResetTrashPrefix.size(), kResetTrashPrefix) == 0) {
      out.push_back(layout.gentle_dir() + "/" + name);
    }
  }
  return out;
}

}  // namespace gentle::store
