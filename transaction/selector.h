// Selector: what START was asked to capture, kept in the record so STATUS can recompute the live
// target the same way later.
#ifndef GENTLE_TRANSACTION_SELECTOR_H_
#define GENTLE_TRANSACTION_SELECTOR_H_

#include <string>
#include <vector>

namespace gentle::transaction {

struct Selector {
  std::string kind = "current-changes";  // current-changes | base-diff | commit-range
  bool staged = false;                   // current-changes only: the index instead of the workspace
  std::string base;                      // base-diff and commit-range: a revision
  std::string head;                      // commit-range: a revision
  std::vector<std::string> untracked;    // intended untracked paths, relative to the worktree root
  // The snapshot's ledger ids: the comment ids of the round's review context (sorted, distinct;
  // transaction/round_context_binding.h). They are part of the target, not of the workspace, so
  // STATUS recomputes a lineage's live target with its current round's ids.
  std::vector<std::string> ledger_ids;

  bool operator==(const Selector&) const = default;
};

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_SELECTOR_H_
