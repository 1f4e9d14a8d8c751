#include "transaction/fsck.h"

#include <map>
#include <set>

#include "store/fault_point.h"
#include "store/file_io.h"
#include "store/history_sync.h"
#include "store/index_db.h"
#include "store/layout.h"
#include "store/pin_ref.h"
#include "store/repository.h"
#include "store/store_guard.h"
#include "transaction/mutation.h"

namespace gentle::transaction {
namespace {

std::string Describe(const store::LineageRow& r) {
  return r.state + " " + r.revision + " " + r.target_identity + " " + r.kind + " " +
         std::to_string(r.path_count) + " " + r.created_at + " " +
         std::string(store::RowStatusName(r.status));
}

Status CompareIndex(const store::StoreLayout& layout, const store::StoreFiles& files,
                    store::IndexDb& db, FsckReport* report) {
  auto add = [&](const char* code, const std::string& lineage, const std::string& path,
                 const std::string& message) {
    report->findings.push_back({code, lineage, path, message});
  };
  std::map<std::string, const store::LineageRow*> lineages;
  for (const auto& row : files.rows.lineages) lineages[row.lineage_id] = &row;
  std::set<std::string> seen;
  GENTLE_RETURN_IF_ERROR(db.ListLineages([&](const store::LineageRow& row) {
    seen.insert(row.lineage_id);
    auto it = lineages.find(row.lineage_id);
    const std::string path = layout.record_path(row.lineage_id);
    if (row.status == store::RowStatus::kPrepared) {
      add("index_prepared", row.lineage_id, path, "catalog row still prepared");
    } else if (it == lineages.end()) {
      add("index_extra_lineage", row.lineage_id, path, "catalog row without a record");
    } else if (Describe(*it->second) != Describe(row)) {
      add("index_stale_lineage", row.lineage_id, path,
          "catalog row says " + Describe(row) + ", the record says " + Describe(*it->second));
    }
    return true;
  }));
  for (const auto& [id, row] : lineages) {
    if (!seen.count(id)) {
      add("index_missing_lineage", id, layout.record_path(id), "record not in the catalog");
    }
  }

  std::map<std::string, const store::TombstoneRow*> tombstones;
  for (const auto& row : files.rows.tombstones) tombstones[row.key] = &row;
  seen.clear();
  GENTLE_RETURN_IF_ERROR(db.ListTombstones([&](const store::TombstoneRow& row) {
    seen.insert(row.key);
    auto it = tombstones.find(row.key);
    const std::string path = layout.tombstone_dir() + "/" + row.key + ".json";
    if (row.status == store::RowStatus::kPrepared) {
      add("index_prepared", row.lineage_id, path, "tombstone row still prepared");
    } else if (it == tombstones.end()) {
      add("index_extra_tombstone", row.lineage_id, path, "tombstone row without its file");
    } else if (!(*it->second == row)) {
      add("index_stale_tombstone", row.lineage_id, path, "tombstone row differs from its file");
    }
    return true;
  }));
  for (const auto& [key, row] : tombstones) {
    if (!seen.count(key)) {
      add("index_missing_tombstone", row->lineage_id, layout.tombstone_dir() + "/" + key + ".json",
          "tombstone file not in the index");
    }
  }

  std::map<std::string, const store::QuarantineRow*> quarantine;
  for (const auto& row : files.rows.quarantine) quarantine[row.quarantine_dir] = &row;
  seen.clear();
  GENTLE_RETURN_IF_ERROR(db.ListQuarantine([&](const store::QuarantineRow& row) {
    seen.insert(row.quarantine_dir);
    auto it = quarantine.find(row.quarantine_dir);
    if (row.status == store::RowStatus::kPrepared) {
      add("index_prepared", row.lineage_id, row.audit_path, "quarantine row still prepared");
    } else if (it == quarantine.end()) {
      add("index_extra_quarantine", row.lineage_id, row.audit_path,
          "quarantine row without its audit record");
    } else if (!(*it->second == row)) {
      add("index_stale_quarantine", row.lineage_id, row.audit_path,
          "quarantine row differs from its audit record");
    }
    return true;
  }));
  for (const auto& [dir, row] : quarantine) {
    if (!seen.count(dir)) {
      add("index_missing_quarantine", row->lineage_id, row->audit_path,
          "audit record not in the index");
    }
  }
  return Status::Ok();
}

// Ref locks that stop writes of the store's refs: any `*.lock` under refs/gentle-ai/, and
// packed-refs.lock. Each is a git command running now, or one stopped while holding it; only a
// person can tell, so fsck names it and never removes it.
void AddRefLocks(const store::Repository& repo, FsckReport* report) {
  const std::string packed = repo.common_dir() + "/packed-refs.lock";
  if (store::KindOf(packed) != store::PathKind::kMissing) {
    report->findings.push_back(
        {"ref_lock", "", packed, "packed-refs is locked (remove it if no git command is running)"});
  }
  std::vector<std::string> pending = {repo.common_dir() + "/refs/gentle-ai"};
  while (!pending.empty()) {
    const std::string dir = pending.back();
    pending.pop_back();
    auto names = store::ListDirectory(dir);
    if (!names.ok()) continue;
    for (const std::string& name : *names) {
      const std::string path = dir + "/" + name;
      const store::PathKind kind = store::KindOf(path);
      if (kind == store::PathKind::kDirectory) {
        pending.push_back(path);
      } else if (name.size() > 5 && name.compare(name.size() - 5, 5, ".lock") == 0) {
        report->findings.push_back(
            {"ref_lock", "", path, "a ref is locked (remove it if no git command is running)"});
      }
    }
  }
}

// Whether index.sqlite can be read, and if so whether it agrees with the files.
Status CheckIndex(const store::StoreLayout& layout, const store::StoreFiles& files,
                  FsckReport* report) {
  const bool has_content = !files.rows.lineages.empty() || !files.rows.tombstones.empty() ||
                           !files.rows.quarantine.empty();
  auto add = [&](const char* code, const std::string& path, const std::string& message) {
    report->findings.push_back({code, "", path, message});
  };
  auto readiness = store::InspectIndexForReader(layout);
  if (!readiness.ok()) {
    // A symlink, directory, FIFO... at index.sqlite or a side file.
    if (readiness.status().code() != Code::kCorrupted) return readiness.status();
    add("index_corrupted", layout.index_path(), readiness.status().message());
    return Status::Ok();
  }
  switch (*readiness) {
    case store::IndexReadiness::kAbsent:
    case store::IndexReadiness::kSideFilesMissing:
      if (has_content) {
        add("index_missing", layout.index_path(), "no usable index.sqlite (review index rebuild)");
      }
      return Status::Ok();
    case store::IndexReadiness::kWalInterrupted:
      add("index_interrupted", layout.index_path() + "-wal",
          "a WAL header with no frame after it (a writer was stopped between the two); readers "
          "answer from the files until the next writer or review index rebuild recovers it");
      return Status::Ok();
    case store::IndexReadiness::kWalUnrecognised:
      add("index_corrupted", layout.index_path() + "-wal",
          "index.sqlite-wal does not start with a WAL header (review index rebuild)");
      return Status::Ok();
    case store::IndexReadiness::kNotADatabase:
      add("index_corrupted", layout.index_path(),
          "index.sqlite is not a SQLite database (review index rebuild)");
      return Status::Ok();
    case store::IndexReadiness::kReady:
      break;
  }
  store::IndexOptions options;
  options.quick_check = true;
  auto db = store::IndexDb::OpenReadOnly(layout.index_path(), options);
  if (db.ok()) {
    report->index_present = true;
    return CompareIndex(layout, files, **db, report);
  }
  if (db.status().code() == Code::kNotFound) {
    if (has_content) {
      add("index_missing", layout.index_path(), "no usable index.sqlite (review index rebuild)");
    }
    return Status::Ok();
  }
  if (db.status().code() == Code::kCorrupted) {
    add("index_corrupted", layout.index_path(), db.status().message());
    return Status::Ok();
  }
  return db.status();
}

// Removes the `.atomic-*` temp files fsck reports as `interrupted_write`: the unpublished residue
// of writes that never renamed into place. The caller holds the writer lock, so no live write
// owns one.
Status RemoveInterruptedWrites(const store::StoreLayout& layout) {
  GENTLE_ASSIGN_OR_RETURN(store::StoreFiles files,
                          store::ScanStoreFiles(layout, store::ScanDepth::kEveryMember));
  std::set<std::string> dirs;
  for (const store::Finding& finding : files.findings) {
    if (finding.code != "interrupted_write" ||
        store::KindOf(finding.path) != store::PathKind::kFile) {
      continue;
    }
    GENTLE_RETURN_IF_ERROR(store::RemoveTree(finding.path));
    dirs.insert(store::ParentOf(finding.path));
  }
  for (const std::string& dir : dirs) GENTLE_RETURN_IF_ERROR(store::SyncDirectory(dir));
  return Status::Ok();
}

}  // namespace

Result<FsckReport> Fsck(const std::string& cwd) {
  GENTLE_ASSIGN_OR_RETURN(store::Repository repo, store::Repository::Discover(cwd));
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForRead(layout));
  GENTLE_ASSIGN_OR_RETURN(store::StoreFiles files,
                          store::ScanStoreFiles(layout, store::ScanDepth::kEveryMember));
  FsckReport report;
  report.lineages = files.rows.lineages.size();
  report.tombstones = files.rows.tombstones.size();
  report.quarantine = files.rows.quarantine.size();
  report.findings = files.findings;

  GENTLE_RETURN_IF_ERROR(CheckIndex(layout, files, &report));

  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> pins, store::ListPinRefs(repo));
  report.pin_refs = pins.size();
  // Each history against its files (store/history_sync.h). An old single-commit pin of a live
  // lineage is not a finding: the next write upgrades it.
  std::set<std::string> lineages(pins.begin(), pins.end());
  for (const auto& row : files.rows.lineages) lineages.insert(row.lineage_id);
  for (const std::string& lineage : lineages) {
    const std::string ref = store::StoreLayout::PinRef(lineage);
    auto check = store::CheckHistory(repo, layout, lineage);
    if (!check.ok()) {
      report.findings.push_back({"history_corrupted", lineage, ref,
                                 "history does not read: " + check.status().message()});
      continue;
    }
    switch (check->drift) {
      case store::HistoryDrift::kMissing:
        report.findings.push_back({"pin_missing", lineage, ref,
                                   "live lineage without its history ref (review index rebuild)"});
        break;
      case store::HistoryDrift::kOrphan:
        report.findings.push_back(
            {"pin_orphan", lineage, ref, "history ref without a live record or a terminal commit"});
        break;
      case store::HistoryDrift::kAhead:
        report.findings.push_back({"history_ahead", lineage, ref,
                                   "the history's tip is a mutation whose record was never "
                                   "written (the next writer rolls it back)"});
        break;
      case store::HistoryDrift::kBehind:
        report.findings.push_back({"history_behind", lineage, ref,
                                   "the record is not the history's tip (the next write of the "
                                   "lineage, or review index rebuild, records it)"});
        break;
      case store::HistoryDrift::kNone:
      case store::HistoryDrift::kLegacyPin:
        break;
    }
  }
  AddRefLocks(repo, &report);
  return report;
}

Result<store::RebuildReport> RebuildIndexCommand(const std::string& cwd) {
  {
    // Refused before anything is created, as start is: a bare repository has no worktree.
    GENTLE_ASSIGN_OR_RETURN(store::Repository repo, store::Repository::Discover(cwd));
    GENTLE_RETURN_IF_ERROR(repo.RequireWorktree("review index rebuild"));
  }
  // Exclusive, as burn and store reset: no reader has the old index open while it is replaced.
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<MutationScope> scope,
                          LockStore(cwd, LockKind::kMaintenance));
  store::FaultPoint("index-rebuild:locked");
  GENTLE_RETURN_IF_ERROR(RemoveInterruptedWrites(scope->layout));
  return store::RebuildIndex(scope->repo, scope->layout);
}

}  // namespace gentle::transaction
