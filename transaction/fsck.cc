#include "transaction/fsck.h"

#include <algorithm>
#include <map>
#include <set>

#include "loop/seen_fsck.h"
#include "store/file_io.h"
#include "store/finding.h"
#include "store/git/repository.h"
#include "store/git/review_refs.h"
#include "store/history_sync.h"
#include "store/index/index_db.h"
#include "store/index/index_reader.h"
#include "store/layout.h"
#include "store/store_guard.h"
#include "store/writer_owner.h"

namespace gentle::transaction {
namespace {

std::string Describe(const store::index::LineageRow& r) {
  return r.state.name() + " " + r.revision + " " + r.target_identity + " " + r.kind + " " +
         std::to_string(r.path_count) + " " + r.created_at + " " +
         std::string(store::index::RowStatusName(r.status));
}

Status CompareIndex(const store::StoreLayout& layout, const store::StoreFiles& files,
                    store::index::IndexDb& db, FsckReport* report) {
  auto add = [&](store::FindingCode code, const std::string& lineage, const std::string& path,
                 const std::string& message) {
    report->findings.push_back({code, lineage, path, message});
  };
  std::map<std::string, const store::index::LineageRow*> lineages;
  for (const auto& row : files.rows.lineages) lineages[row.lineage_id] = &row;
  std::set<std::string> seen;
  GENTLE_RETURN_IF_ERROR(db.ListLineages([&](const store::index::LineageRow& row) {
    seen.insert(row.lineage_id);
    auto it = lineages.find(row.lineage_id);
    const std::string path = layout.record_path(row.lineage_id);
    if (row.status == store::index::RowStatus::kPrepared) {
      add(store::FindingCode::kIndexPrepared, row.lineage_id, path, "catalog row still prepared");
    } else if (it == lineages.end()) {
      add(store::FindingCode::kIndexExtraLineage, row.lineage_id, path,
          "catalog row without a record");
    } else if (Describe(*it->second) != Describe(row)) {
      add(store::FindingCode::kIndexStaleLineage, row.lineage_id, path,
          "catalog row says " + Describe(row) + ", the record says " + Describe(*it->second));
    }
    return true;
  }));
  for (const auto& [id, row] : lineages) {
    if (!seen.count(id)) {
      add(store::FindingCode::kIndexMissingLineage, id, layout.record_path(id),
          "record not in the catalog");
    }
  }

  std::map<std::string, const store::index::TombstoneRow*> tombstones;
  for (const auto& row : files.rows.tombstones) tombstones[row.key] = &row;
  seen.clear();
  GENTLE_RETURN_IF_ERROR(db.ListTombstones([&](const store::index::TombstoneRow& row) {
    seen.insert(row.key);
    auto it = tombstones.find(row.key);
    const std::string path = layout.tombstone_dir() + "/" + row.key + ".json";
    if (row.status == store::index::RowStatus::kPrepared) {
      add(store::FindingCode::kIndexPrepared, row.lineage_id, path, "tombstone row still prepared");
    } else if (it == tombstones.end()) {
      add(store::FindingCode::kIndexExtraTombstone, row.lineage_id, path,
          "tombstone row without its file");
    } else if (!(*it->second == row)) {
      add(store::FindingCode::kIndexStaleTombstone, row.lineage_id, path,
          "tombstone row differs from its file");
    }
    return true;
  }));
  for (const auto& [key, row] : tombstones) {
    if (!seen.count(key)) {
      add(store::FindingCode::kIndexMissingTombstone, row->lineage_id,
          layout.tombstone_dir() + "/" + key + ".json", "tombstone file not in the index");
    }
  }

  std::map<std::string, const store::index::QuarantineRow*> quarantine;
  for (const auto& row : files.rows.quarantine) quarantine[row.quarantine_dir] = &row;
  seen.clear();
  GENTLE_RETURN_IF_ERROR(db.ListQuarantine([&](const store::index::QuarantineRow& row) {
    seen.insert(row.quarantine_dir);
    auto it = quarantine.find(row.quarantine_dir);
    if (row.status == store::index::RowStatus::kPrepared) {
      add(store::FindingCode::kIndexPrepared, row.lineage_id, row.audit_path,
          "quarantine row still prepared");
    } else if (it == quarantine.end()) {
      add(store::FindingCode::kIndexExtraQuarantine, row.lineage_id, row.audit_path,
          "quarantine row without its audit record");
    } else if (!(*it->second == row)) {
      add(store::FindingCode::kIndexStaleQuarantine, row.lineage_id, row.audit_path,
          "quarantine row differs from its audit record");
    }
    return true;
  }));
  for (const auto& [dir, row] : quarantine) {
    if (!seen.count(dir)) {
      add(store::FindingCode::kIndexMissingQuarantine, row->lineage_id, row->audit_path,
          "audit record not in the index");
    }
  }
  return Status::Ok();
}

// Ref locks that stop writes of the store's refs: any `*.lock` under refs/gentle-ai/, and
// packed-refs.lock. One that the owner record of a stopped gentle-ai writer names is its own, and
// the next writer removes it (store/writer_owner.h); any other is a git command running now, or
// one stopped while holding it: only a person can tell, so fsck names it and never removes it.
void AddRefLocks(const store::git::Repository& repo, const std::vector<std::string>& dead_owner,
                 FsckReport* report) {
  auto add = [&](const std::string& path) {
    const std::string relative = path.substr(repo.common_dir().size() + 1);
    const std::string ref = relative.substr(0, relative.size() - 5);
    const bool own = std::find(dead_owner.begin(), dead_owner.end(), ref) != dead_owner.end();
    report->findings.push_back(
        {store::FindingCode::kRefLock, store::git::LineageOfRef(ref), path,
         own ? "a gentle-ai writer was stopped while holding this lock (the next writer removes it)"
             : "a ref is locked by a command other than gentle-ai (remove it if no git command "
               "is running)"});
  };
  const std::string packed = repo.common_dir() + "/packed-refs.lock";
  if (store::KindOf(packed) != store::PathKind::kMissing) add(packed);
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
        add(path);
      }
    }
  }
}

// Whether a finding can be a live writer's work in progress: a step of the write protocol
// (prepared rows, a history one step off, a temp file, a directory before its record, an index
// being installed) or a ref lock the writer named in its owner record.
bool WorkInProgress(const store::Finding& finding, const std::string& common_dir,
                    const std::set<std::string>& live_refs) {
  switch (finding.code) {
    case store::FindingCode::kIncompleteEntry:
    case store::FindingCode::kInterruptedWrite:
    case store::FindingCode::kTombstoneLiveLineage:
    case store::FindingCode::kQuarantinePrepared:
    case store::FindingCode::kResetInterrupted:
    case store::FindingCode::kIndexMissing:
    case store::FindingCode::kIndexInterrupted:
    case store::FindingCode::kIndexPrepared:
    case store::FindingCode::kIndexMissingLineage:
    case store::FindingCode::kIndexMissingTombstone:
    case store::FindingCode::kIndexMissingQuarantine:
    case store::FindingCode::kIndexExtraLineage:
    case store::FindingCode::kIndexExtraTombstone:
    case store::FindingCode::kIndexExtraQuarantine:
    case store::FindingCode::kIndexStaleLineage:
    case store::FindingCode::kIndexStaleTombstone:
    case store::FindingCode::kIndexStaleQuarantine:
    case store::FindingCode::kHistoryRefOrphan:
    case store::FindingCode::kHistoryAhead:
    case store::FindingCode::kHistoryBehind:
      return true;
    case store::FindingCode::kRefLock:
      for (const std::string& ref : live_refs) {
        if (finding.path == common_dir + "/" + ref + ".lock") return true;
      }
      return false;
    default:
      return false;
  }
}

// Whether index.sqlite can be read, and if so whether it agrees with the files. Any file at
// index.sqlite is `index_present`, usable or not.
Status CheckIndex(const store::StoreLayout& layout, const store::StoreFiles& files,
                  FsckReport* report) {
  const bool has_content = !files.rows.lineages.empty() || !files.rows.tombstones.empty() ||
                           !files.rows.quarantine.empty();
  const std::string index = layout.index_path();
  auto add = [&](store::FindingCode code, const std::string& path, const std::string& message) {
    report->findings.push_back({code, "", path, message});
  };
  report->index_present = store::KindOf(index) != store::PathKind::kMissing;
  auto readiness = store::index::InspectIndexForReader(layout);
  if (!readiness.ok()) {
    // A symlink, directory, FIFO... at index.sqlite or a side file.
    if (readiness.status().code() != Code::kCorrupted) return readiness.status();
    add(store::FindingCode::kIndexCorrupted, index, readiness.status().message());
    return Status::Ok();
  }
  store::index::IndexOptions options;
  options.quick_check = true;
  Result<std::unique_ptr<store::index::IndexDb>> db = Status(Code::kInternal, "not opened");
  switch (*readiness) {
    case store::index::IndexReadiness::kAbsent:
      if (has_content) {
        add(store::FindingCode::kIndexMissing, index, "no index.sqlite (review index rebuild)");
      }
      return Status::Ok();
    case store::index::IndexReadiness::kSideFilesMissing:
      // Read from a copy in memory: opening the file would create its side files.
      db = store::index::OpenIndexImage(layout, options);
      break;
    case store::index::IndexReadiness::kWalInterrupted:
      add(store::FindingCode::kIndexInterrupted, index + "-wal",
          "a WAL header with no frame after it (a writer was stopped between the two); readers "
          "answer from the files until the next writer or review index rebuild recovers it");
      return Status::Ok();
    case store::index::IndexReadiness::kWalUnrecognised:
      add(store::FindingCode::kIndexCorrupted, index + "-wal",
          "index.sqlite-wal does not start with a WAL header (review index rebuild)");
      return Status::Ok();
    case store::index::IndexReadiness::kNotADatabase:
      add(store::FindingCode::kIndexCorrupted, index,
          "index.sqlite is not a SQLite database (review index rebuild)");
      return Status::Ok();
    case store::index::IndexReadiness::kHotJournal:
      add(store::FindingCode::kIndexCorrupted, index + "-journal",
          "a rollback journal beside the WAL index, which this store never writes; readers answer "
          "from the files until the next writer or review index rebuild removes it");
      return Status::Ok();
    case store::index::IndexReadiness::kReady:
      db = store::index::IndexDb::OpenReadOnly(index, options);
      break;
  }
  if (db.ok()) return CompareIndex(layout, files, **db, report);
  switch (db.status().code()) {
    case Code::kNotFound:
      // A file that holds no index: zero bytes, or a database never initialised (version 0).
      if (has_content) {
        add(store::FindingCode::kIndexCorrupted, index,
            "index.sqlite holds no index (" + db.status().message() + "): review index rebuild");
      }
      return Status::Ok();
    case Code::kCorrupted:
      add(store::FindingCode::kIndexCorrupted, index, db.status().message());
      return Status::Ok();
    case Code::kBudgetExceeded:
      // Not read, so not judged: readers answer from the files, as without an index.
      add(store::FindingCode::kIndexMissing, index,
          db.status().message() +
              "; readers answer from the files until the next writer "
              "restores the side files");
      return Status::Ok();
    default:
      return db.status();
  }
}

}  // namespace

Result<FsckReport> Fsck(const std::string& cwd, store::Progress* progress) {
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(cwd));
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForRead(layout));
  // A live writer (docs/lifecycle.md, "review fsck"): the writer lock held when fsck starts or
  // ends, or taken and released in between (the lock file's owner record was rewritten).
  GENTLE_ASSIGN_OR_RETURN(store::WriterProbe first, store::ProbeWriter(layout));
  GENTLE_ASSIGN_OR_RETURN(store::StoreFiles files,
                          store::ScanStoreFiles(layout, store::ScanDepth::kEveryMember, progress));
  FsckReport report;
  report.lineages = files.rows.lineages.size();
  report.tombstones = files.rows.tombstones.size();
  report.quarantine = files.rows.quarantine.size();
  report.findings = files.findings;

  GENTLE_RETURN_IF_ERROR(CheckIndex(layout, files, &report));

  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> histories, store::git::ListHistoryRefs(repo));
  report.history_refs = histories.size();
  // Each history against its files (store/history_sync.h). An old single-commit pin of a live
  // lineage is not a finding: the next write upgrades it.
  std::set<std::string> lineages(histories.begin(), histories.end());
  for (const auto& row : files.rows.lineages) lineages.insert(row.lineage_id);
  store::ProgressPhase phase(progress, "histories checked", lineages.size());
  for (const std::string& lineage : lineages) {
    phase.Next();
    const std::string ref = store::StoreLayout::HistoryRef(lineage);
    auto check = store::CheckHistory(repo, layout, lineage);
    if (!check.ok()) {
      report.findings.push_back({store::FindingCode::kHistoryCorrupted, lineage, ref,
                                 "history does not read: " + check.status().message()});
      continue;
    }
    switch (check->drift) {
      case store::HistoryDrift::kMissing:
        report.findings.push_back({store::FindingCode::kHistoryRefMissing, lineage, ref,
                                   "live lineage without its history ref (review index rebuild)"});
        break;
      case store::HistoryDrift::kOrphan:
        report.findings.push_back({store::FindingCode::kHistoryRefOrphan, lineage, ref,
                                   "history ref without a live record or a terminal commit"});
        break;
      case store::HistoryDrift::kAhead:
        report.findings.push_back({store::FindingCode::kHistoryAhead, lineage, ref,
                                   "the history's tip is a mutation whose record was never "
                                   "written (the next writer rolls it back)"});
        break;
      case store::HistoryDrift::kBehind:
        report.findings.push_back({store::FindingCode::kHistoryBehind, lineage, ref,
                                   "the record is not the history's tip (the next write of the "
                                   "lineage, or review index rebuild, records it)"});
        break;
      case store::HistoryDrift::kNone:
      case store::HistoryDrift::kLegacyPin:
        break;
    }
  }
  phase.Done();
  GENTLE_ASSIGN_OR_RETURN(store::WriterProbe last, store::ProbeWriter(layout));
  report.live_writer = first.live || last.live || !first.SameFileState(last);
  // A dead writer's record stays in the lock file until the next writer takes it.
  AddRefLocks(repo, report.live_writer ? std::vector<std::string>() : last.refs, &report);
  if (report.live_writer) {
    // What a writer in the middle of its protocol shows is not a finding; what a dead one left,
    // that live writer resolves first.
    std::set<std::string> live_refs(first.refs.begin(), first.refs.end());
    live_refs.insert(last.refs.begin(), last.refs.end());
    std::erase_if(report.findings, [&](const store::Finding& finding) {
      return WorkInProgress(finding, repo.common_dir(), live_refs);
    });
  }
  // The seen ledger, when it exists (primary data beside the store: docs/loop.md).
  GENTLE_ASSIGN_OR_RETURN(loop::SeenFsck seen, loop::CheckSeenLedger(layout.common_dir()));
  report.findings.insert(report.findings.end(), seen.findings.begin(), seen.findings.end());
  return report;
}

}  // namespace gentle::transaction
