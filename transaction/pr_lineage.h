// PrLineage: one live lineage per PR (docs/loop.md, "One lineage per PR").
//
// A lineage holds the PR a selector names when it was started in this worktree with the same
// selector (kind, projection, base, head and intended untracked paths; the round's ledger ids
// aside) and that selector is a commit range, or its current round is bound to a forge context
// (`start` or `revise --context`). A new head or a re-imported context (other comment ids) gives
// the PR another target identity; STATUS with that selector then answers with the PR's live
// lineage (its next, whatever its applicability) and START revises it (correction_required) or
// answers it (any other state) instead of starting a second lineage. After that lineage's burn,
// the PR's candidate reads as the PR's burn (BurnedPrLineage) until its head moves. Read-only.
#ifndef GENTLE_TRANSACTION_PR_LINEAGE_H_
#define GENTLE_TRANSACTION_PR_LINEAGE_H_

#include <optional>
#include <string>

#include "store/git/repository.h"
#include "store/layout.h"
#include "store/record.h"
#include "store/status.h"
#include "transaction/selector.h"

namespace gentle::transaction {

// A selector as a query: what start was asked, without the round's ledger ids.
Selector SelectorQuery(Selector selector);

// Whether a lineage recorded with `recorded` (RecordedSelector), whose current round is bound to
// a forge context when `round_bound`, holds the PR `asked` names (its worktree aside).
bool HoldsPr(const Selector& asked, const Selector& recorded, bool round_bound);

// Whether the current round of `record` is bound to a forge context (its local history says so).
bool RoundBound(const store::git::Repository& repo, const store::RecordView& record);

// The first live lineage started in the worktree whose identity is `here` that holds the PR
// `asked` names; nothing when none does.
Result<std::optional<store::RecordView>> FindPrLineage(const store::git::Repository& repo,
                                                       const store::StoreLayout& layout,
                                                       const Selector& asked,
                                                       const std::string& here);

// Whether the burn tombstone `tombstone_key` (the one of the candidate `asked` names here) was
// written by the burn of a lineage that held that PR: the tombstone's lineage's history ends in
// its burn, and the burned record holds the PR (HoldsPr: the same selector, a commit range or a
// round bound to a forge context; the burn of a bound round writes the tombstone of its trees
// without the context's ids, which the PR's selector names). False when any of it cannot be
// read (the burn is then reported as a burned candidate).
bool BurnedPrLineage(const store::git::Repository& repo, const store::StoreLayout& layout,
                     const Selector& asked, const std::string& tombstone_key);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_PR_LINEAGE_H_
