// START: freezes the live candidate into a lineage (docs/lifecycle.md).
//
// Captures the snapshot without touching the user's git index, worktree or HEAD, derives the
// content-addressed lineage id from the worktree identity and the target identity, and under the
// store's writer lock keeps the trees reachable by the history ref refs/gentle-ai/reviews/<lineage>
// and writes the record in state `reviewing`. Idempotent: the same candidate in the same worktree
// returns the existing lineage and revision and rewrites nothing; so does a candidate that another
// lineage of this worktree holds as its current round (after `revise`;
// transaction/target_claims.h). One live lineage per PR (transaction/pr_lineage.h): when no
// lineage holds the candidate and the live lineage of this worktree started with the same
// selector holds a PR, start answers it (created false) or, when it was sent back, revises it
// (REVISE with the same context flags and budget) instead of starting a second one. An empty
// candidate is `usage`; a candidate whose approval was already burned is `consumed`; a candidate
// with an entry that no part of the reviewer's view can hold is `budget_exceeded`
// (transaction/candidate_budget.h). The round's budget (`max_bytes`) is frozen in its history
// commit; a second start of a lineage's candidate with a budget other than its round's is
// `conflict`, and one without a budget answers the lineage as it is.
#ifndef GENTLE_TRANSACTION_START_H_
#define GENTLE_TRANSACTION_START_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "store/review_state.h"
#include "store/status.h"
#include "transaction/round_context_binding.h"
#include "transaction/selector.h"

namespace gentle::transaction {

struct StartRequest {
  std::string cwd = ".";
  Selector selector;
  // --context FILE / --context-unavailable REASON (transaction/round_context_binding.h): the
  // context's comment ids replace selector.ledger_ids.
  ContextFlags context;
  // --max-bytes N / --runtime NAME (transaction/reviewer_runtime.h): the round's budget, frozen in
  // its history commit (store/round_budget.h); nullopt: the default, 4 MiB.
  std::optional<uint64_t> max_bytes;
};

struct StartResult {
  std::string lineage;
  std::string revision;
  std::string target_identity;
  store::StateName state;
  std::string kind;
  size_t changed_path_count = 0;
  bool created = false;  // false when an identical lineage already existed
};

Result<StartResult> Start(const StartRequest& request);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_START_H_
