// ReviewerBudget: the round's reviewer budget as the verbs use it (docs/lifecycle.md, "The
// reviewer's budget"). start freezes the budget it is given (--max-bytes or --runtime,
// transaction/reviewer_runtime.h; the default otherwise) in the round's history commit
// (store/round_budget.h); revise keeps the current round's budget unless it is given one; status
// reads the current round's to probe what an export of it takes. Read-only.
#ifndef GENTLE_TRANSACTION_REVIEWER_BUDGET_H_
#define GENTLE_TRANSACTION_REVIEWER_BUDGET_H_

#include <cstdint>

#include "store/git/repository.h"
#include "store/history_ref.h"
#include "store/record.h"
#include "store/status.h"

namespace gentle::transaction {

// The budget of `record`'s current round, from its local history (the default when the history
// has no such file, or none of this round's opening; `corrupted` for a file that is not a budget).
Result<uint64_t> CurrentRoundBudget(const store::git::Repository& repo,
                                    const store::RecordView& record);

// Ok when `record`'s current round has budget `wanted`; `conflict` otherwise (start again for a
// candidate a lineage holds, with another budget), details max_bytes (the round's).
Status CheckSameBudget(const store::git::Repository& repo, const store::RecordView& record,
                       uint64_t wanted);

// Adds the history file of `budget` to a round's opening commit unless it is the default.
void AddRoundBudget(uint64_t budget, store::HistoryCommitSpec* commit);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_REVIEWER_BUDGET_H_
