#include "store/store_scan.h"

#include <algorithm>
#include <initializer_list>

#include "store/audit_record.h"
#include "store/file_io.h"
#include "store/history_sync.h"
#include "store/lineage_id.h"
#include "store/progress.h"
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

bool IsTempName(std::string_view name) { return name.compare(0, 8, ".atomic-") == 0; }

// Members gentle-ai (Go) keeps in a lineage directory beside review-state.json (docs/lifecycle.md,
// "Stores written by the Go gentle-ai"): two files and two directories whose contents are its own.
// The trace-gaps directory's name is read from gentle-ai's source, not yet seen in a store it
// wrote.
bool IsGoLineageFile(std::string_view name) {
  return name == "review-receipt.json" || name == "finalize-attempt-journal.json";
}
bool IsGoLineageDir(std::string_view name) {
  return name == "reviewer-results" || name == "trace-gaps";
}

void AddSymlink(const std::string& lineage, const std::string& path, StoreFiles* out) {
  out->findings.push_back({FindingCode::kUnexpectedEntry, lineage, path,
                           "symbolic link inside the store (never followed)"});
}

// Reports every symlink below `dir` (a directory, not followed into links), at any depth, except
// the entries named in `skip` directly in `dir` (reported by a more specific check).
void ReportSymlinksBelow(const std::string& dir, const std::string& lineage,
                         std::initializer_list<std::string_view> skip, StoreFiles* out) {
  auto names = ListDirectory(dir);
  if (!names.ok()) return;
  for (const std::string& name : *names) {
    if (std::find(skip.begin(), skip.end(), name) != skip.end()) continue;
    const std::string path = dir + "/" + name;
    const PathKind kind = KindOf(path);
    if (kind == PathKind::kSymlink) {
      AddSymlink(lineage, path, out);
    } else if (kind == PathKind::kDirectory) {
      ReportSymlinksBelow(path, lineage, {}, out);
    }
  }
}

// The members of lineage directory `dir` other than its record (whose own damage LoadRecord
// reports): gentle-ai's known members are expected; a `.atomic-*` temp file beside a complete
// record is an interrupted write (`interrupted_write`); in a directory without a record it is part
// of the incomplete entry; anything else, and any symlink, is an `unexpected_entry`.
void ScanLineageMembers(const std::string& dir, const std::string& lineage, bool has_record,
                        StoreFiles* out) {
  auto names = ListDirectory(dir);
  if (!names.ok()) return;
  for (const std::string& name : *names) {
    if (name == "review-state.json") continue;
    const std::string path = dir + "/" + name;
    const PathKind kind = KindOf(path);
    if (kind == PathKind::kSymlink) {
      AddSymlink(lineage, path, out);
    } else if (IsTempName(name) && kind == PathKind::kFile) {
      if (has_record) {
        out->findings.push_back({FindingCode::kInterruptedWrite, lineage, path,
                                 "temporary file of an interrupted atomic write"});
      }
    } else if (IsGoLineageFile(name) && kind == PathKind::kFile) {
      continue;
    } else if (IsGoLineageDir(name) && kind == PathKind::kDirectory) {
      ReportSymlinksBelow(path, lineage, {}, out);
    } else {
      out->findings.push_back(
          {FindingCode::kUnexpectedEntry, lineage, path, "not part of a lineage directory"});
    }
  }
}

// The members of quarantine directory `dir` other than its audit record (whose own damage
// LoadAuditRecord reports): `residue/` is whatever the lineage directory held, kept as it was, so
// only a symlink in it is a finding; a `.atomic-*` temp file is an interrupted write of the audit
// record; anything else is an `unexpected_entry`.
void ScanQuarantineMembers(const std::string& dir, StoreFiles* out) {
  auto names = ListDirectory(dir);
  if (!names.ok()) return;
  for (const std::string& name : *names) {
    if (name == "reclaim-record.json") continue;
    const std::string path = dir + "/" + name;
    const PathKind kind = KindOf(path);
    if (kind == PathKind::kSymlink) {
      AddSymlink("", path, out);
    } else if (name == "residue" && kind == PathKind::kDirectory) {
      ReportSymlinksBelow(path, "", {}, out);
    } else if (IsTempName(name) && kind == PathKind::kFile) {
      out->findings.push_back({FindingCode::kInterruptedWrite, "", path,
                               "temporary file of an interrupted atomic write"});
    } else {
      out->findings.push_back(
          {FindingCode::kUnexpectedEntry, "", path, "not part of a quarantine directory"});
    }
  }
}

// Entries of `dir`, or none when it is absent.
Result<std::vector<std::string>> EntriesOf(const StoreLayout& layout, const std::string& dir) {
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), dir));
  auto names = ListDirectory(dir);
  if (!names.ok() && names.status().code() == Code::kNotFound) return std::vector<std::string>();
  return names;
}

Status ScanLineages(const StoreLayout& layout, ScanDepth depth, Progress* progress,
                    StoreFiles* out) {
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> names, EntriesOf(layout, layout.v2_dir()));
  CreationTimes times(layout.common_dir());
  // v2/LOCK, the writers' lock file, is not an entry.
  auto is_lock = [&](const std::string& name) {
    return name == "LOCK" && KindOf(layout.v2_dir() + "/" + name) == PathKind::kFile;
  };
  ProgressPhase phase(
      progress, "records read",
      names.size() - static_cast<size_t>(std::count_if(names.begin(), names.end(), is_lock)));
  for (const std::string& name : names) {
    if (is_lock(name)) continue;
    phase.Next();
    const std::string path = layout.v2_dir() + "/" + name;
    const PathKind kind = KindOf(path);
    if (kind == PathKind::kSymlink) {
      AddSymlink(IsValidLineageId(name) ? name : "", path, out);
      continue;
    }
    if (IsTempName(name)) {
      // A temp file, or an import's new lineage directory not yet renamed into place.
      out->findings.push_back(
          {FindingCode::kInterruptedWrite, "", path, "temporary entry of an interrupted write"});
      continue;
    }
    if (!IsValidLineageId(name) || kind != PathKind::kDirectory) {
      out->findings.push_back({FindingCode::kUnexpectedEntry, "", path, "not a lineage directory"});
      continue;
    }
    auto record = LoadRecord(layout, name);
    if (record.ok()) {
      out->rows.lineages.push_back(LineageRowOf(*record, index::RowStatus::kCommitted));
      out->rows.lineages.back().created_at = times.Of(*record);
    } else if (record.status().code() == Code::kNotFound) {
      out->incomplete.push_back(name);
      out->findings.push_back({FindingCode::kIncompleteEntry, name, path,
                               "lineage directory without a record (review reclaim)"});
    } else {
      out->findings.push_back({FindingCode::kRecordCorrupted, name, layout.record_path(name),
                               record.status().message()});
    }
    if (depth == ScanDepth::kEveryMember) ScanLineageMembers(path, name, record.ok(), out);
  }
  phase.Done();
  return Status::Ok();
}

Status ScanTombstones(const StoreLayout& layout, ScanDepth depth, Progress* progress,
                      StoreFiles* out) {
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> names,
                          EntriesOf(layout, layout.tombstone_dir()));
  ProgressPhase phase(progress, "tombstones read", names.size());
  for (const std::string& name : names) {
    phase.Next();
    const std::string path = layout.tombstone_dir() + "/" + name;
    const std::string key = name.size() > 5 ? name.substr(0, name.size() - 5) : "";
    const PathKind kind = KindOf(path);
    if (depth == ScanDepth::kEveryMember && kind == PathKind::kSymlink) {
      AddSymlink("", path, out);
      continue;
    }
    if (IsTempName(name) && kind == PathKind::kFile) {
      out->findings.push_back({FindingCode::kInterruptedWrite, "", path,
                               "temporary file of an interrupted atomic write"});
      continue;
    }
    if (!IsHexKey(key) || name.substr(key.size()) != ".json") {
      out->findings.push_back(
          {FindingCode::kUnexpectedEntry, "", path, "not a tombstone file name"});
      continue;
    }
    auto row = LoadTombstone(layout, key);
    if (!row.ok()) {
      out->findings.push_back({FindingCode::kTombstoneCorrupted, "", path, row.status().message()});
      continue;
    }
    if (KindOf(layout.record_path(row->lineage_id)) != PathKind::kMissing) {
      out->findings.push_back({FindingCode::kTombstoneLiveLineage, row->lineage_id, path,
                               "tombstone of a lineage whose record still exists"});
    }
    out->rows.tombstones.push_back(*row);
  }
  phase.Done();
  return Status::Ok();
}

Status ScanQuarantine(const StoreLayout& layout, ScanDepth depth, Progress* progress,
                      StoreFiles* out) {
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> names,
                          EntriesOf(layout, layout.quarantine_dir()));
  ProgressPhase phase(progress, "audit records read", names.size());
  for (const std::string& name : names) {
    phase.Next();
    const std::string path = layout.quarantine_dir() + "/" + name;
    const PathKind kind = KindOf(path);
    if (kind == PathKind::kSymlink) {
      AddSymlink("", path, out);
      continue;
    }
    if (kind != PathKind::kDirectory) {
      out->findings.push_back(
          {FindingCode::kUnexpectedEntry, "", path, "not a quarantine directory"});
      continue;
    }
    if (depth == ScanDepth::kEveryMember) ScanQuarantineMembers(path, out);
    auto record = LoadAuditRecord(layout, name);
    if (!record.ok()) {
      out->findings.push_back(
          {FindingCode::kQuarantineCorrupted, "", path, record.status().message()});
      continue;
    }
    if (name.compare(0, record->lineage_id.size() + 1, record->lineage_id + "-") != 0) {
      out->findings.push_back({FindingCode::kQuarantineCorrupted, record->lineage_id, path,
                               "directory name does not start with its lineage"});
      continue;
    }
    if (record->status == index::RowStatus::kPrepared) {
      out->findings.push_back({FindingCode::kQuarantinePrepared, record->lineage_id, path,
                               "interrupted abandon or reclaim (audit record still prepared)"});
    }
    out->rows.quarantine.push_back(QuarantineRowOf(layout, name, *record));
  }
  phase.Done();
  return Status::Ok();
}

// The store root's own entries: a symlink there is a finding, and so is one anywhere below the
// directories the scans above do not cover (gentle-ai's effect-markers/, incidents/, v1/, ...).
// Other names are left alone: the root is shared with gentle-ai's features and SQLite's side
// files. index.sqlite and its side files are the index check's (fsck).
Status ScanRoot(const StoreLayout& layout, StoreFiles* out) {
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> names, EntriesOf(layout, layout.root()));
  for (const std::string& name : names) {
    const std::string path = layout.root() + "/" + name;
    if (name.compare(0, 12, "index.sqlite") == 0) continue;
    const PathKind kind = KindOf(path);
    if (kind == PathKind::kSymlink) {
      AddSymlink("", path, out);
    } else if (kind == PathKind::kDirectory && name == "terminal-consumption") {
      ReportSymlinksBelow(path, "", {"v1"}, out);
    } else if (kind == PathKind::kDirectory && name != "v2" && name != "quarantine") {
      ReportSymlinksBelow(path, "", {}, out);
    }
  }
  return Status::Ok();
}

}  // namespace

index::LineageRow LineageRowOf(const RecordView& record, index::RowStatus status) {
  index::LineageRow row;
  row.lineage_id = record.lineage_id;
  row.state = record.state;
  row.kind = record.initial_snapshot.kind;
  row.created_at = record.created_at;
  row.path_count = static_cast<int64_t>(record.current_snapshot.paths.size());
  row.revision = record.revision;
  row.target_identity = record.current_snapshot.identity;
  row.status = status;
  return row;
}

Result<StoreFiles> ScanStoreFiles(const StoreLayout& layout, ScanDepth depth, Progress* progress) {
  StoreFiles out;
  GENTLE_RETURN_IF_ERROR(ScanLineages(layout, depth, progress, &out));
  GENTLE_RETURN_IF_ERROR(ScanTombstones(layout, depth, progress, &out));
  GENTLE_RETURN_IF_ERROR(ScanQuarantine(layout, depth, progress, &out));
  if (depth == ScanDepth::kEveryMember) GENTLE_RETURN_IF_ERROR(ScanRoot(layout, &out));
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> trash, ResetTrashDirs(layout));
  for (const std::string& dir : trash) {
    out.findings.push_back(
        {FindingCode::kResetInterrupted, "", dir, "interrupted review store reset"});
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
