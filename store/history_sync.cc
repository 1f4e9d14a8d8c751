#include "store/history_sync.h"

#include "store/file_io.h"
#include "store/history_verb.h"
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
    } else if (tip->verb.Is(HistoryVerb::kStart)) {
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
