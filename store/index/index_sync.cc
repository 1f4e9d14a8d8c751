#include "store/index/index_sync.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <iostream>
#include <set>

#include "store/audit_record.h"
#include "store/fault_point.h"
#include "store/file_io.h"
#include "store/file_modes.h"
#include "store/file_write.h"
#include "store/git/review_refs.h"
#include "store/git/review_refs_write.h"
#include "store/history_sync.h"
#include "store/index/database_files.h"
#include "store/index/index_install.h"
#include "store/record.h"
#include "store/store_scan.h"
#include "store/tombstone.h"

namespace gentle::store::index {
namespace {

bool NonEmptyFile(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

bool RecordPresent(const StoreLayout& layout, const std::string& lineage) {
  return KindOf(layout.record_path(lineage)) != PathKind::kMissing;
}

// A newer release's index is not damaged: it must not be rebuilt (downgraded) behind its back.
bool IsNewerRelease(const Status& status) { return status.has_detail(DetailKey::kSchemaVersion); }

// What a writer answers for a newer release's index: corrupted, naming the way out.
Status RefuseNewerRelease(const Status& status) {
  Status refusal(Code::kCorrupted,
                 status.message() +
                     "; `gentle-ai review index rebuild` replaces it with an index built from the "
                     "files, which are the source of truth");
  refusal.WithDetailsOf(status);
  return refusal;
}

// True when the files hold anything an index would describe.
bool StoreHasContent(const StoreLayout& layout) {
  for (const std::string& dir : {layout.tombstone_dir(), layout.quarantine_dir()}) {
    auto names = ListDirectory(dir);
    if (names.ok() && !names->empty()) return true;
  }
  auto names = ListDirectory(layout.v2_dir());
  if (!names.ok()) return false;
  for (const std::string& name : *names) {
    if (name != "LOCK") return true;
  }
  return false;
}

// Removes the unpublished `.atomic-*` temp files a crashed atomic write left in `dir`. Callers
// hold the writer lock, so no live write owns them.
Status RemoveTemps(const std::string& dir) {
  auto names = ListDirectory(dir);
  if (!names.ok()) return Status::Ok();
  bool removed = false;
  for (const std::string& name : *names) {
    if (name.compare(0, 8, ".atomic-") != 0) continue;
    GENTLE_RETURN_IF_ERROR(RemoveTree(dir + "/" + name));
    removed = true;
  }
  return removed ? SyncDirectory(dir) : Status::Ok();
}

// Removes `dir` when it holds nothing but unpublished `.atomic-*` temp files.
Status RemoveIfOnlyTemps(const std::string& dir) {
  auto names = ListDirectory(dir);
  if (!names.ok()) return Status::Ok();
  for (const std::string& name : *names) {
    if (name.compare(0, 8, ".atomic-") != 0) return Status::Ok();
  }
  GENTLE_RETURN_IF_ERROR(RemoveTree(dir));
  return SyncDirectory(ParentOf(dir));
}

// Deletes the lineage's ref when it is an old build's single-commit pin (those were removed with
// the record); a history stays.
Status DropLegacyPin(const git::Repository& repo, const std::string& lineage) {
  auto tip = ReadHistoryTip(repo, lineage);
  if (!tip.ok() || !*tip || !(*tip)->legacy_pin) return Status::Ok();
  return git::DeleteHistoryRefUnlessLocked(repo, lineage);
}

// Finishes a quarantine move whose residue is in place, or undoes one whose residue is not.
Status ResolveQuarantineFiles(const git::Repository& repo, const StoreLayout& layout,
                              const std::string& quarantine_dir, const std::string& lineage) {
  const std::string qdir = layout.quarantine_dir() + "/" + quarantine_dir;
  if (KindOf(ResiduePath(layout, quarantine_dir)) == PathKind::kDirectory) {
    auto record = LoadAuditRecord(layout, quarantine_dir);
    if (record.ok() && record->status == RowStatus::kPrepared) {
      // Rewrite only the status, keeping every other member as written.
      GENTLE_ASSIGN_OR_RETURN(std::string bytes,
                              ReadFileLimited(AuditPath(layout, quarantine_dir), kMaxAuditBytes));
      const std::string from = "\"status\": \"prepared\"";
      size_t at = bytes.find(from);
      if (at == std::string::npos) return Status(Code::kCorrupted, "cannot commit " + qdir);
      bytes.replace(at, from.size(), "\"status\": \"committed\"");
      GENTLE_RETURN_IF_ERROR(
          WriteFileAtomic(AuditPath(layout, quarantine_dir), bytes, kRecordFileMode));
    }
    // A writer killed while it wrote the committed audit record left its temp file here.
    GENTLE_RETURN_IF_ERROR(RemoveTemps(qdir));
    if (!RecordPresent(layout, lineage)) GENTLE_RETURN_IF_ERROR(DropLegacyPin(repo, lineage));
    return Status::Ok();
  }
  // The lineage directory never moved: the mutation did not happen (nor its terminal commit).
  GENTLE_RETURN_IF_ERROR(RollBackAhead(repo, layout, lineage));
  if (KindOf(qdir) == PathKind::kMissing) return Status::Ok();
  GENTLE_RETURN_IF_ERROR(RemoveTree(qdir));
  return SyncDirectory(layout.quarantine_dir());
}

Status ResolveTombstoneFiles(const git::Repository& repo, const StoreLayout& layout,
                             const TombstoneRow& row, bool* effective) {
  const std::string file = TombstonePath(layout, row.key);
  const bool file_present = KindOf(file) == PathKind::kFile;
  *effective = false;
  if (file_present && !RecordPresent(layout, row.lineage_id)) {
    // Past the burn's point of no return (the record is gone): finish it.
    GENTLE_RETURN_IF_ERROR(RemoveTree(layout.lineage_dir(row.lineage_id)));
    GENTLE_RETURN_IF_ERROR(SyncDirectory(layout.v2_dir()));
    GENTLE_RETURN_IF_ERROR(DropLegacyPin(repo, row.lineage_id));
    *effective = true;
    return Status::Ok();
  }
  // The burn did not take effect: neither does its terminal history commit.
  GENTLE_RETURN_IF_ERROR(RollBackAhead(repo, layout, row.lineage_id));
  if (file_present) {
    // The record still exists: the burn never took effect; undo its tombstone.
    GENTLE_RETURN_IF_ERROR(RemoveTree(file));
    GENTLE_RETURN_IF_ERROR(SyncDirectory(layout.tombstone_dir()));
  }
  return RemoveTemps(layout.tombstone_dir());
}

Status ResolveResetTrash(const git::Repository& repo, const StoreLayout& layout) {
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> trash, ResetTrashDirs(layout));
  if (trash.empty()) return Status::Ok();
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> histories, git::ListHistoryRefs(repo));
  for (const std::string& lineage : histories) {
    if (!RecordPresent(layout, lineage))
      GENTLE_RETURN_IF_ERROR(git::DeleteHistoryRefUnlessLocked(repo, lineage));
  }
  for (const std::string& dir : trash) GENTLE_RETURN_IF_ERROR(RemoveTree(dir));
  return SyncDirectory(layout.gentle_dir());
}

// Installs a new index holding what the files say now (store/index/index_install.h).
Result<std::unique_ptr<IndexDb>> InstallFromFiles(const StoreLayout& layout,
                                                  RebuildReport* report) {
  GENTLE_ASSIGN_OR_RETURN(StoreFiles files, ScanStoreFiles(layout));
  report->lineages = files.rows.lineages.size();
  report->tombstones = files.rows.tombstones.size();
  report->quarantine = files.rows.quarantine.size();
  return InstallIndex(layout, files.rows);
}

}  // namespace

Result<std::unique_ptr<IndexDb>> OpenIndexForWriter(const git::Repository& repo,
                                                    const StoreLayout& layout) {
  const std::string index = layout.index_path();
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), index));
  // A directory, FIFO or symlink at index.sqlite or a side file is refused before anything is
  // opened or removed: it is not a file this store wrote.
  GENTLE_RETURN_IF_ERROR(CheckDatabaseFileKinds(index));
  GENTLE_RETURN_IF_ERROR(RemoveInterruptedInstalls(layout));
  RebuildReport ignored;
  std::unique_ptr<IndexDb> db;
  if (!NonEmptyFile(index) && StoreHasContent(layout)) {
    Notice("index.sqlite was missing; rebuilding it from the files");
    GENTLE_ASSIGN_OR_RETURN(db, InstallFromFiles(layout, &ignored));
  } else {
    // An index that exists, or a store with nothing to index (an empty index is then right).
    auto opened = IndexDb::OpenReadWrite(index);
    if (opened.ok()) {
      db = std::move(opened).value();
    } else if (IsNewerRelease(opened.status())) {
      return RefuseNewerRelease(opened.status());
    } else if (opened.status().code() != Code::kCorrupted) {
      return opened.status();
    } else {
      Notice("index.sqlite is unusable (" + opened.status().message() +
             "); rebuilding it from the files");
      GENTLE_ASSIGN_OR_RETURN(db, InstallFromFiles(layout, &ignored));
    }
  }
  GENTLE_RETURN_IF_ERROR(RecoverInterrupted(repo, layout, db.get()));
  return db;
}

Status RecoverInterrupted(const git::Repository& repo, const StoreLayout& layout, IndexDb* db) {
  GENTLE_RETURN_IF_ERROR(ResolveResetTrash(repo, layout));
  GENTLE_ASSIGN_OR_RETURN(IndexSnapshot prepared, db->ListPrepared());
  for (const QuarantineRow& row : prepared.quarantine) {
    const bool effective = QuarantineEffective(layout, row);
    GENTLE_RETURN_IF_ERROR(
        ResolveQuarantineFiles(repo, layout, row.quarantine_dir, row.lineage_id));
    GENTLE_RETURN_IF_ERROR(db->WriteTransaction([&]() -> Status {
      if (!effective) return db->DeleteQuarantine(row.quarantine_dir);
      GENTLE_RETURN_IF_ERROR(db->MarkQuarantineCommitted(row.quarantine_dir));
      if (RecordPresent(layout, row.lineage_id)) return Status::Ok();
      return db->DeleteLineage(row.lineage_id);
    }));
  }
  for (const TombstoneRow& row : prepared.tombstones) {
    bool effective = false;
    GENTLE_RETURN_IF_ERROR(ResolveTombstoneFiles(repo, layout, row, &effective));
    GENTLE_RETURN_IF_ERROR(db->WriteTransaction([&]() -> Status {
      if (!effective) return db->DeleteTombstone(row.key);
      GENTLE_RETURN_IF_ERROR(db->MarkTombstoneCommitted(row.key));
      return db->DeleteLineage(row.lineage_id);
    }));
  }
  for (const LineageRow& row : prepared.lineages) {
    auto record = LoadRecord(layout, row.lineage_id);
    if (record.ok()) {
      GENTLE_RETURN_IF_ERROR(RollBackAhead(repo, layout, row.lineage_id));
      // An import that wrote the record and stopped before its ref moved: forward to the fetched
      // tip (a mutation's history is level here, and this does nothing). A ref locked by someone
      // else (a git command: a lock gentle-ai left is gone by now) keeps this lineage's row
      // prepared for a later writer; it never stops the writer of another lineage.
      Status synced = SyncHistory(repo, layout, row.lineage_id, "").status();
      if (synced.code() == Code::kBusy) continue;
      GENTLE_RETURN_IF_ERROR(synced);
      GENTLE_RETURN_IF_ERROR(RemoveTemps(layout.lineage_dir(row.lineage_id)));
      LineageRow committed = LineageRowOf(*record, RowStatus::kCommitted);
      committed.created_at = CreationTimes(&repo).Of(*record);
      GENTLE_RETURN_IF_ERROR(db->UpsertLineage(committed));
      continue;
    }
    if (record.status().code() == Code::kNotFound) {
      // An interrupted start: undo its history commit (or an old build's pin) and its empty
      // directory.
      GENTLE_RETURN_IF_ERROR(RollBackAhead(repo, layout, row.lineage_id));
      GENTLE_RETURN_IF_ERROR(DropLegacyPin(repo, row.lineage_id));
      GENTLE_RETURN_IF_ERROR(RemoveIfOnlyTemps(layout.lineage_dir(row.lineage_id)));
      // An import stopped before its new lineage directory was renamed into place.
      if (KindOf(layout.staged_lineage_dir(row.lineage_id)) != PathKind::kMissing) {
        GENTLE_RETURN_IF_ERROR(RemoveTree(layout.staged_lineage_dir(row.lineage_id)));
        GENTLE_RETURN_IF_ERROR(SyncDirectory(layout.v2_dir()));
      }
    }
    GENTLE_RETURN_IF_ERROR(db->DeleteLineage(row.lineage_id));
  }
  return Status::Ok();
}

Result<RebuildReport> RebuildIndex(const git::Repository& repo, const StoreLayout& layout,
                                   Progress* progress) {
  const std::string index = layout.index_path();
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), index));
  GENTLE_RETURN_IF_ERROR(CheckDatabaseFileKinds(index));
  RebuildReport report;
  // The old index, if it opens, knows which mutations were in flight: resolve those first. One
  // from a newer release is replaced: this is the explicit way out (docs/lifecycle.md).
  if (NonEmptyFile(index)) {
    auto old = IndexDb::OpenReadWrite(index);
    if (old.ok()) {
      GENTLE_RETURN_IF_ERROR(RecoverInterrupted(repo, layout, old->get()));
    } else if (IsNewerRelease(old.status())) {
      const std::string& version = *old.status().detail(DetailKey::kSchemaVersion);
      std::from_chars(version.data(), version.data() + version.size(),
                      report.replaced_schema_version);
    } else if (old.status().code() == Code::kBusy) {
      return old.status();
    }
  }
  GENTLE_RETURN_IF_ERROR(ResolveResetTrash(repo, layout));
  // Interrupted mutations the files alone reveal.
  GENTLE_ASSIGN_OR_RETURN(StoreFiles files, ScanStoreFiles(layout, ScanDepth::kEntries, progress));
  for (const QuarantineRow& row : files.rows.quarantine) {
    if (row.status != RowStatus::kPrepared) continue;
    GENTLE_RETURN_IF_ERROR(
        ResolveQuarantineFiles(repo, layout, row.quarantine_dir, row.lineage_id));
    ++report.recovered;
  }
  for (const TombstoneRow& row : files.rows.tombstones) {
    if (!RecordPresent(layout, row.lineage_id)) continue;
    bool effective = false;
    TombstoneRow prepared = row;
    prepared.status = RowStatus::kPrepared;
    GENTLE_RETURN_IF_ERROR(ResolveTombstoneFiles(repo, layout, prepared, &effective));
    ++report.recovered;
  }
  // Histories: a tip ahead of its files is rolled back; a live lineage whose history lacks its
  // record (none at all, an old pin, a record another tool wrote) gets a `sync` commit.
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> refs, ListHistoryRefs(repo));
  std::set<std::string> lineages(refs.begin(), refs.end());
  for (const LineageRow& row : files.rows.lineages) lineages.insert(row.lineage_id);
  ProgressPhase phase(progress, "histories levelled", lineages.size());
  for (const std::string& lineage : lineages) {
    phase.Next();
    GENTLE_ASSIGN_OR_RETURN(HistoryRepair repaired, RepairHistory(repo, layout, lineage));
    if (repaired.synced) ++report.repinned;
  }
  phase.Done();
  FaultPoint("index-rebuild:files-recovered");
  // The files as the recovery left them are the new index.
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<IndexDb> db, InstallFromFiles(layout, &report));
  return report;
}

}  // namespace gentle::store::index
