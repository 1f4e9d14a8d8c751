#include "store/history_sync.h"

#include "store/file_io.h"
#include "store/record.h"

namespace gentle::store {

Result<HistoryCheck> CheckHistory(const git::Repository& repo, const StoreLayout& layout,
                                  const std::string& lineage) {
  HistoryCheck out;
  GENTLE_ASSIGN_OR_RETURN(out.tip, ReadHistoryTip(repo, lineage));
  const std::string path = layout.record_path(lineage);
  if (KindOf(path) == PathKind::kFile) {
    GENTLE_ASSIGN_OR_RETURN(std::string bytes, ReadFileLimited(path, kMaxRecordBytes));
    out.record_file = std::move(bytes);
  }
  const std::optional<HistoryCommit>& tip = out.tip;
  if (!tip) {
    out.drift = out.record_file ? HistoryDrift::kMissing : HistoryDrift::kNone;
    return out;
  }
  if (tip->legacy_pin) {
    out.drift = out.record_file ? HistoryDrift::kLegacyPin : HistoryDrift::kOrphan;
    return out;
  }
  if (!out.record_file) {
    if (tip->terminal()) {
      out.drift = HistoryDrift::kNone;
    } else if (tip->verb == "start") {
      out.drift = HistoryDrift::kAhead;  // a start whose record was never written
    } else {
      out.drift = HistoryDrift::kOrphan;
    }
    return out;
  }
  if (!tip->terminal() && tip->record_file == *out.record_file) {
    out.drift = HistoryDrift::kNone;
    return out;
  }
  if (tip->parent) {
    auto parent = ReadHistoryCommit(repo, *tip->parent);
    if (parent.ok() && !parent->legacy_pin && !parent->terminal() &&
        parent->record_file == *out.record_file) {
      out.drift = HistoryDrift::kAhead;
      return out;
    }
  }
  out.drift = HistoryDrift::kBehind;
  return out;
}

Result<bool> SyncHistory(const git::Repository& repo, const StoreLayout& layout,
                         const std::string& lineage, const std::string& at) {
  GENTLE_ASSIGN_OR_RETURN(HistoryCheck check, CheckHistory(repo, layout, lineage));
  if (!check.record_file || check.drift == HistoryDrift::kNone ||
      check.drift == HistoryDrift::kAhead) {
    return false;
  }
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
  sync.verb = "sync";
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

std::string CreationTimes::Of(const RecordView& record) {
  if (!record.created_at.empty()) return record.created_at;
  if (repo_ == nullptr && !tried_) {
    tried_ = true;
    auto repo = git::Repository::Discover(common_dir_);
    if (repo.ok()) {
      opened_.emplace(std::move(repo).value());
      repo_ = &*opened_;
    }
  }
  if (repo_ == nullptr) return "";
  auto tip = ReadHistoryTip(*repo_, record.lineage_id);
  if (!tip.ok() || !*tip) return "";
  return (*tip)->created_at;
}

}  // namespace gentle::store
