// TargetClaims: which live lineages claim a worktree's live target (docs/lifecycle.md, decided:
// claims are worktree-aware).
//
// A lineage claims this worktree's live target when its current snapshot's identity is the live
// target's and it was started here (its record's initial_atomic_start.worktree_identity is this
// worktree's identity) or its record does not say where (a legacy or foreign record cannot be
// proven to belong elsewhere). STATUS calls a target two lineages claim `ambiguous`; START returns
// the lineage that already claims the candidate (after a `revise`, the lineage whose current round
// it is) instead of starting a second one. Read-only.
#ifndef GENTLE_TRANSACTION_TARGET_CLAIMS_H_
#define GENTLE_TRANSACTION_TARGET_CLAIMS_H_

#include <optional>
#include <string>

#include "store/layout.h"
#include "store/record.h"
#include "store/status.h"

namespace gentle::transaction {

// Whether `record` may claim the live target of the worktree whose identity is `here`.
bool ClaimsHere(const store::RecordView& record, const std::string& here);

// The first live lineage other than `exclude` whose current target is `identity` and that claims
// it here, as its record. With an index, from the catalog (a record is loaded only when its row's
// target identity collides); without one, from the records.
Result<std::optional<store::RecordView>> FindClaimant(const store::StoreLayout& layout,
                                                      const std::string& identity,
                                                      const std::string& here,
                                                      const std::string& exclude);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_TARGET_CLAIMS_H_
