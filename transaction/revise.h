// REVISE: the next review round of a lineage (docs/loop.md, gentle-ai's own model:
// `initial_snapshot` stays, `current_snapshot` moves).
//
// After REQUEST_CHANGES (state `correction_required`) and the author's fix, re-captures the live
// candidate with the lineage's own selector (transaction/recorded_selector.h, as STATUS recomputes
// it) into `current_snapshot`, with its own base tree (a base-diff's merge-base may have moved).
// `generation` rises by one (a round is a generation), the state goes back to `reviewing`, and the
// history gets a `revise` commit holding the new round's trees and record (and its review-context
// binding); the index row follows the new target identity. The lineage id stays (it names the
// initial candidate).
//
// Refusals, before anything is written: any state but correction_required is `wrong_state`; a
// historical-compat record `read_only`; a lineage started in another worktree of the clone, a
// candidate with no changed paths, and a candidate identical to the current round's are `usage`;
// a candidate whose approval was already burned in this worktree is `consumed`; a candidate with
// an entry no part of the reviewer's view can hold under the new round's budget is
// `budget_exceeded` (transaction/candidate_budget.h). The candidate is
// captured before the store lock is taken (its objects are written like START's, unreferenced
// until the history commit) and the revision read then is compared again under the lock:
// `conflict` if another writer got there first. Fault points: revise:captured, revise:locked, then
// CommitState's revise:index-prepared, revise:history-prepared, revise:record-written,
// revise:index-committed.
#ifndef GENTLE_TRANSACTION_REVISE_H_
#define GENTLE_TRANSACTION_REVISE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "store/review_state.h"
#include "store/status.h"
#include "transaction/round_context_binding.h"

namespace gentle::transaction {

struct ReviseRequest {
  std::string cwd = ".";
  std::string lineage;
  std::optional<std::string> expected_revision;
  // The new round's review context (transaction/round_context_binding.h): --context FILE gives
  // its ledger ids, --context-unavailable REASON marks it; without either the round has neither
  // (a context-unavailable mark of the previous round is lifted).
  ContextFlags context;
  // --max-bytes N / --runtime NAME: the new round's budget (transaction/reviewer_runtime.h);
  // nullopt keeps the current round's (transaction/reviewer_budget.h).
  std::optional<uint64_t> max_bytes;
};

struct ReviseResult {
  std::string lineage;
  std::string previous_revision;
  std::string revision;
  store::StateName previous_state;
  store::StateName state;
  int64_t round = 0;  // the new round
  std::string target_identity;
  size_t changed_path_count = 0;
};

Result<ReviseResult> Revise(const ReviseRequest& request);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_REVISE_H_
