// The history's repairs (store/history_sync.h): SyncHistory, RollBackAhead and RepairHistory, in
// the store's write target.
#include <git2.h>

#include "store/file_io.h"
#include "store/history_chain.h"
#include "store/history_sync.h"
#include "store/history_verb.h"
#include "store/record.h"

namespace gentle::store {
namespace {

// A record that a fetched history's live tip holds byte for byte, where that history continues the
// local one: an import that wrote the record and stopped before moving the ref. The ref moves
// forward to that tip instead of a sync commit.
Result<bool> ForwardToFetched(const git::Repository& repo, const std::string& lineage,
                              const HistoryCheck& check) {
  if (check.tip && check.tip->legacy_pin) return false;
  GENTLE_ASSIGN_OR_RETURN(std::vector<FetchedHistory> fetched, ListFetchedHistories(repo, lineage));
  for (const FetchedHistory& history : fetched) {
    auto chain = VerifyHistoryChain(repo, lineage, history.tip);
    if (!chain.ok() || !chain->terminal.empty() || chain->tip().record_file != *check.record_file) {
      continue;
    }
    bool continues = !check.tip;
    for (const HistoryCommit& commit : chain->commits) {
      if (check.tip && commit.id == check.tip->id) continues = true;
    }
    if (!continues) continue;
    const std::optional<std::string> from =
        check.tip ? std::optional<std::string>(check.tip->id) : std::nullopt;
    GENTLE_RETURN_IF_ERROR(MoveHistoryRef(repo, lineage, from, history.tip));
    return true;
  }
  return false;
}

bool TreeExists(const git::Repository& repo, const std::string& hex) {
  git_oid oid;
  git_odb* odb = nullptr;
  if (git_oid_fromstr(&oid, hex.c_str()) != 0 || git_repository_odb(&odb, repo.raw()) != 0) {
    return false;
  }
  const bool exists = git_odb_exists(odb, &oid) == 1;
  git_odb_free(odb);
  return exists;
}

}  // namespace

Result<bool> SyncHistory(const git::Repository& repo, const StoreLayout& layout,
                         const std::string& lineage, const std::string& at) {
  GENTLE_ASSIGN_OR_RETURN(HistoryCheck check, CheckHistory(repo, layout, lineage));
  if (!check.record_file || check.drift == HistoryDrift::kNone ||
      check.drift == HistoryDrift::kAhead) {
    return false;
  }
  GENTLE_ASSIGN_OR_RETURN(bool forwarded, ForwardToFetched(repo, lineage, check));
  if (forwarded) return true;
  GENTLE_ASSIGN_OR_RETURN(RecordView record, ParseRecordFile(*check.record_file, lineage));
  std::optional<std::string> from, parent;
  HistoryCommitSpec sync;
  if (check.tip) {
    from = check.tip->id;
    if (!check.tip->legacy_pin) {
      parent = check.tip->id;
      sync.created_at = check.tip->created_at;
    }
  }
  // A record of an earlier build names its creation time; it wins over the history's, as in
  // CreationTimes::Of.
  if (!record.created_at.empty()) sync.created_at = record.created_at;
  sync.verb = HistoryVerb::kSync;
  sync.lineage = lineage;
  sync.record_file = *check.record_file;
  sync.revision = record.revision;
  sync.state = record.state;
  sync.base_tree = record.current_snapshot.base_tree;
  sync.candidate_tree = record.current_snapshot.candidate_tree;
  sync.at = at.empty() ? sync.created_at : at;
  GENTLE_ASSIGN_OR_RETURN(std::string id, WriteHistoryCommit(repo, sync, parent));
  GENTLE_RETURN_IF_ERROR(MoveHistoryRef(repo, lineage, from, id));
  return true;
}

Status RollBackAhead(const git::Repository& repo, const StoreLayout& layout,
                     const std::string& lineage, bool* rolled_back) {
  if (rolled_back != nullptr) *rolled_back = false;
  GENTLE_ASSIGN_OR_RETURN(HistoryCheck check, CheckHistory(repo, layout, lineage));
  if (check.drift != HistoryDrift::kAhead) return Status::Ok();
  // A start tip without a record whose parent is terminal (a lineage started again after an
  // abandon) goes back to that parent; a root goes away.
  Status moved = MoveHistoryRef(repo, lineage, check.tip->id, check.tip->parent);
  if (moved.code() == Code::kBusy) return Status::Ok();  // fsck reports the ref lock
  GENTLE_RETURN_IF_ERROR(moved);
  if (rolled_back != nullptr) *rolled_back = true;
  return Status::Ok();
}

Result<HistoryRepair> RepairHistory(const git::Repository& repo, const StoreLayout& layout,
                                    const std::string& lineage) {
  HistoryRepair out;
  GENTLE_RETURN_IF_ERROR(RollBackAhead(repo, layout, lineage, &out.rolled_back));
  auto record = LoadRecord(layout, lineage);
  if (!record.ok() || !TreeExists(repo, record->current_snapshot.base_tree) ||
      !TreeExists(repo, record->current_snapshot.candidate_tree)) {
    return out;
  }
  auto synced = SyncHistory(repo, layout, lineage, "");
  if (synced.ok()) {
    out.synced = *synced;
  } else {
    out.sync_status = synced.status();
  }
  return out;
}

}  // namespace gentle::store
