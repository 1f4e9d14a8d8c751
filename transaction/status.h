// STATUS: a read-only view of the store (docs/lifecycle.md).
//
// Status reports each lineage's state and its applicability to the live target of the worktree the
// command runs in: the live target is recomputed with the lineage's own selector by hashing in
// memory (nothing is written: not the object database, the index or the store).
//   current_target  the live target is the lineage's current snapshot, and only that lineage claims
//                   it here
//   ambiguous       more than one live lineage claims the live target here
//   unrelated       the live target differs (or cannot be computed here), or the lineage was
//                   captured in another worktree of the clone
//   corrupted       the record cannot be read or does not verify
//   incomplete      a lineage directory without a record (an interrupted operation)
// Claims are worktree-aware: a lineage claims the live target only in the worktree it was started
// in (its record's initial_atomic_start.worktree_identity is this worktree's identity). A record
// that names no worktree cannot be proven foreign and claims the live target wherever it matches.
// Each lineage, and the report as a whole, carries its next action (transaction/next_action.h).
#ifndef GENTLE_TRANSACTION_STATUS_H_
#define GENTLE_TRANSACTION_STATUS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/git/repository.h"
#include "store/record.h"
#include "store/review_state.h"
#include "store/status.h"
#include "transaction/applicability.h"
#include "transaction/next_action.h"
#include "transaction/selector.h"
#include "transaction/status_role.h"

namespace gentle::transaction {

struct LineageStatus {
  std::string lineage;
  store::StateName state;  // empty when corrupted
  std::string kind;
  Applicability applicability = Applicability::kUnrelated;
  std::string revision;
  std::string target_identity;
  std::string live_target_identity;  // empty when it could not be computed
  std::string detail;  // why: unrelated, ambiguous, corrupted, incomplete; or what next waits for
  // The remote the answer comes from: a fetched-only lineage's, or the remote an imported lineage
  // came from while no local mutation followed (store/provenance.h); empty otherwise.
  std::string source;
  bool fetched_only = false;  // read from a fetched history: nothing here to mutate
  // The current round's review-context binding, from the local history (store/round_context.h):
  // the digest of its context.json, or the harness's context-unavailable reason; empty when none
  // or not known (a fetched-only lineage, a round another tool opened).
  std::string context_digest, context_unavailable;
  UnrelatedReason unrelated = UnrelatedReason::kNotUnrelated;
  bool foreign = false;     // its record names another worktree of the clone
  Fit frozen = Fit::kFits;  // probed for a reviewing lineage (transaction/candidate_budget.h)
  // When next is export: the parts of the current round's review view under its budget
  // (`export-context --view review --max-bytes <max_bytes>` prints them); else 0.
  struct Parts {
    uint64_t count = 0, max_bytes = 0;
    bool operator==(const Parts&) const = default;
  } parts;
  Fit live = Fit::kFits;  // probed for a sent-back lineage whose live target moved
  // The APPROVE cap (transaction/context_cap.h): of the current round, and of a round opened now.
  bool approve_capped = false, require_context = false;
  bool merged = false;      // approved, not the live target, its candidate tree on HEAD's history
  bool post_due = false;    // the current round's newest verdict waits for its post
  bool pr_lineage = false;  // this worktree's live lineage of the PR status was asked about
  Next next;

  EntryFacts Facts() const {
    return {state.state(), applicability,  unrelated,       fetched_only, foreign,  frozen,
            live,          approve_capped, require_context, merged,       post_due, pr_lineage};
  }
};

struct StatusReport {
  std::vector<LineageStatus> lineages;
  // With a lineage: its next for the role. Without: PickNext over the entries for the role, the
  // live candidate being the selector's (startable unless clean, burned here or by the PR's
  // lineage, not computable, or over the budget), with
  // git config gentle-ai.requireContext read once (transaction/context_cap.h).
  Next next;
  // The lineage `next` is about (transaction/next_action.h PickNext); empty for start and none.
  std::string next_lineage;
  // When next is export: that lineage's parts (LineageStatus::parts); else zero.
  LineageStatus::Parts parts;
};

// With `lineage`: that lineage only (not_found / consumed / retired / corrupted as errors; an
// incomplete entry is `corrupted`), loading only its own record and, to decide `ambiguous`, only
// records whose index row names the same target; consumed/retired are keyed index lookups. A
// lineage the local store does not know is read from its fetched history (store/
// fetched_lineage.h: verified whole, `source` set; a terminal one answers consumed / retired).
// Under a batch-reconciliation marker (store/store_guard.h): no entries, next none /
// reconciliation_prepared (every other verb refuses until the tool that wrote the marker
// finishes). Without: every live lineage directory (one without a readable record reports
// `corrupted`, one without a record `incomplete`); fetched histories are not listed (`list` shows
// them). With `selector` (start's selector flags; not with `lineage`): the candidate that selector
// names here, and only the lineages of this worktree that hold it (their current target is its
// identity) or were started with the same selector; the report's next is the candidate's: its
// lineage's, or start when no lineage holds it and start would take it; the lineage of this
// worktree that holds the asked PR (transaction/pr_lineage.h) answers whatever its applicability.
// A selector that cannot be resolved is refused as start refuses it. Every entry's next and the
// report's are `role`'s (transaction/status_role.h; RoleNext, PickNext; the author's unless asked):
// an author's entries are every live lineage (those of other worktrees read none), a reviewer's
// selector also takes the lineages of other worktrees started with it.
//
// Budget (docs/lifecycle.md, "Start and revise refuse what could never be exported"): a reviewing
// round's review view is split under the round's budget (transaction/candidate_budget.h: headers
// first, so a small diff costs a few header reads), giving the parts its export takes; a candidate
// that start (under `start_budget`, the budget start would be given: nullopt for the default) or
// revise (under the lineage's current budget, which revise keeps) would capture is captured again
// with its objects held in memory (store/git/memory_writes.h) and measured, so that next never
// names export, start or revise for a view the verb refuses. Nothing is written.
Result<StatusReport> InspectStatus(const std::string& cwd,
                                   const std::optional<std::string>& lineage,
                                   const std::optional<Selector>& selector = std::nullopt,
                                   StatusRole role = StatusRole::kAuthor,
                                   std::optional<uint64_t> start_budget = std::nullopt);

// One record's status (applicability current_target, ambiguous or unrelated, and next) against the
// live target of `repo`'s worktree, as `status --lineage` reports it, for a record whose context
// has just been exported (its frozen diff is not measured again); `source` is the remote of a
// record read from a fetched history, empty for the local store. Read-only.
Result<LineageStatus> AssessRecord(const store::git::Repository& repo,
                                   const store::RecordView& record, const std::string& source);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_STATUS_H_
