// RecordedSelector: the Selector a lineage's record says START was asked to capture
// (initial_atomic_start.selector), so that STATUS and REVISE recompute the live candidate the same
// way later, with the ledger ids of the current round (its review context's comment ids, part of
// the target identity). Records without one (legacy or foreign stores) get the best reconstruction
// from the initial snapshot: kind, projection and intended untracked paths; base-diff and
// commit-range then lack their revisions and cannot be recomputed (capture refuses them with
// `usage`).
#ifndef GENTLE_TRANSACTION_RECORDED_SELECTOR_H_
#define GENTLE_TRANSACTION_RECORDED_SELECTOR_H_

#include "store/record.h"
#include "transaction/selector.h"

namespace gentle::transaction {

Selector RecordedSelector(const store::RecordView& record);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_RECORDED_SELECTOR_H_
