// History and files: where a lineage's history ref stands against its record file (docs/format.md;
// docs/lifecycle.md, "History refs").
//
// The record file is the truth. A mutation writes its history commit (the ref moved, durable)
// before its record, so after a crash the history can be one step ahead of the files, never
// missing a committed verdict. CheckHistory classifies, read-only:
//   kNone       in step: the tip's review-state.json is the record file (or the tip is terminal
//               and the record is gone, or there is neither ref nor record);
//   kAhead      the tip is a mutation that never committed: its parent holds the record file (a
//               terminal tip while the record is still there; a start tip without a record);
//   kBehind     the record file is not the tip's and not its parent's (written by another tool);
//   kMissing    a record without a history ref (a store written by the Go gentle-ai);
//   kLegacyPin  a record whose ref is an old single-commit pin;
//   kOrphan     a ref with no record that is not terminal (or a legacy pin without a record).
// RollBackAhead resolves kAhead by moving the ref back to the parent (deleting it when the tip
// has none), compare-and-swap on the tip; a ref whose lock is taken is left as it is.
#ifndef GENTLE_STORE_HISTORY_SYNC_H_
#define GENTLE_STORE_HISTORY_SYNC_H_

#include <optional>
#include <string>

#include "store/git/repository.h"
#include "store/history_ref.h"
#include "store/layout.h"
#include "store/record.h"
#include "store/status.h"

namespace gentle::store {

enum class HistoryDrift { kNone, kAhead, kBehind, kMissing, kLegacyPin, kOrphan };

struct HistoryCheck {
  HistoryDrift drift = HistoryDrift::kNone;
  std::optional<HistoryCommit> tip;
  std::optional<std::string> record_file;  // the record's bytes, when there is a record
};

Result<HistoryCheck> CheckHistory(const git::Repository& repo, const StoreLayout& layout,
                                  const std::string& lineage);

// SyncHistory, RollBackAhead and RepairHistory are defined in the store's write target
// (store/history_sync_write.cc).
// When the record file is not the history's tip (kBehind, kMissing, kLegacyPin), writes a `sync`
// commit of the record as it is (parent: the tip; an old pin is replaced, not continued) and moves
// the ref to it. Its time is `at`, or when empty the lineage's creation time (or 0). Returns
// whether it wrote one.
Result<bool> SyncHistory(const git::Repository& repo, const StoreLayout& layout,
                         const std::string& lineage, const std::string& at);

// Rolls back a tip ahead of the files; *rolled_back (may be null) says whether it did.
Status RollBackAhead(const git::Repository& repo, const StoreLayout& layout,
                     const std::string& lineage, bool* rolled_back = nullptr);

// The repair of one lineage's history that index rebuild and `review repair` make, under the
// writer lock: RollBackAhead, then, when the record loads and both its trees are present,
// SyncHistory (its time the lineage's creation time, so the commit is the same anywhere). A
// rollback error is returned; a sync error is kept in `sync_status` (index rebuild goes on
// without it).
struct HistoryRepair {
  bool rolled_back = false;
  bool synced = false;
  Status sync_status;
};
Result<HistoryRepair> RepairHistory(const git::Repository& repo, const StoreLayout& layout,
                                    const std::string& lineage);

// A lineage's creation time for the index and `list`: the record's `created_at` (records of
// earlier builds carry it), else its history's `Created-At`, else "" (a Go record without a
// history). Records this build writes have no time member (gentle-ai has none). The repository is
// opened on first need, once for all lineages of a scan.
class CreationTimes {
 public:
  explicit CreationTimes(std::string common_dir) : common_dir_(std::move(common_dir)) {}
  explicit CreationTimes(const git::Repository* repo) : repo_(repo) {}
  std::string Of(const RecordView& record);

 private:
  std::string common_dir_;
  const git::Repository* repo_ = nullptr;
  std::optional<git::Repository> opened_;
  bool tried_ = false;
};

}  // namespace gentle::store

#endif  // GENTLE_STORE_HISTORY_SYNC_H_
