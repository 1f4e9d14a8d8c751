// REPAIR (docs/format.md; docs/lifecycle.md, "review repair").
//
// Repair brings lineage histories level with their records, under the writer lock, for every
// lineage (every history ref and every lineage directory) or only `lineage`: what fsck reports as
// history_ahead is rolled back (store::RollBackAhead); history_behind, pin_missing (a record
// without a history) and an old single-commit pin get a `sync` commit of the record as it is
// (store::SyncHistory). Both through store::RepairHistory, the step index rebuild takes. As every
// writer, it first opens the index, which finishes or undoes interrupted mutations
// (store/index/index_sync.h RecoverInterrupted). Records are never written.
//
// Idempotent: a second run finds nothing. When nothing is out of step, nothing is opened for
// writing, not even the index; a repository without a store and without history refs is left
// untouched (nothing is created). pin_orphan and history_corrupted are reported, not
// repaired: neither has a record to level the history with.
#ifndef GENTLE_TRANSACTION_REPAIR_H_
#define GENTLE_TRANSACTION_REPAIR_H_

#include <optional>
#include <string>
#include <vector>

#include "store/progress.h"
#include "store/status.h"

namespace gentle::transaction {

struct RepairEntry {
  std::string lineage;
  std::string found;                 // the fsck finding code before the repair
  std::vector<std::string> actions;  // "rolled_back", "synced", in that order
  std::optional<std::string> left;   // the finding code after, nullopt when in step
  std::string error;                 // why a sync failed; empty otherwise
};

struct RepairReport {
  // Lineages that were out of step, in lineage order; a lineage in step is not listed.
  std::vector<RepairEntry> lineages;
  bool clean() const {
    for (const RepairEntry& e : lineages) {
      if (e.left) return false;
    }
    return true;
  }
};

// `progress` (may be null) is told the records read, the histories checked and the histories
// repaired, one phase each.
Result<RepairReport> Repair(const std::string& cwd, const std::optional<std::string>& lineage,
                            store::Progress* progress = nullptr);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_REPAIR_H_
