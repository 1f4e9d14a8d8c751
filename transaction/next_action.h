// NextAction: the one action a harness should take now, and why (docs/lifecycle.md, docs/loop.md;
// docs/lifecycle.md "Next action"), derived from a lineage's state and applicability so that a
// harness needs no state machine of its own. The rule: `next` never names an action the tool
// would then refuse; where every action would be refused (or none is due), it is `none`, and
// `next_reason` says why. Pure: no I/O; status gathers the facts (including the budget probes
// below) and prints the names.
//
// Per lineage (EntryNext), the first row that applies:
//   corrupted (unreadable: repair cannot act; abandon quarantines it)
//                                                              abandon / corrupted
//   incomplete                                                 repair / incomplete
//   ambiguous                                                  select_lineage / ambiguous
//   fetched-only (read from a remote's history; nothing here)  none / fetched_only
//   the round is bound to a forge context and its newest verdict
//     has no posted id recorded since                          post / post_due
//   reviewing, frozen diff exportable, APPROVE capped          export / approve_capped
//   reviewing, frozen diff exportable                          export / review_due
//   reviewing, frozen diff over the budget                     none / budget_exceeded
//   reviewing, frozen diff's objects missing here              none / objects_missing
//   correction_required, started in another worktree          none / other_worktree
//   correction_required, live target moved, within budget,
//     git config gentle-ai.requireContext true                 revise / context_required
//   correction_required, live target moved, within budget      revise / candidate_changed
//   correction_required, live target moved, over the budget    none / budget_exceeded
//   correction_required, current_target                        none / waiting_for_author
//   correction_required, live target not computable            none / target_not_computable
//   approved, candidate tree committed on HEAD's first-parent
//     history and not the live target (merged)                burn / merged
//   approved                                                   burn / approved
//   escalated, invalidated, decision_required                  none / the state's name
//   any other state                                            none / unknown_state
// For a whole worktree (PickNext): the first entry whose next is abandon or repair (that entry's
// next); else the actionable entries (current_target or ambiguous here, correction_required with
// a moved live target and started here, approved and merged and started here, or the asked PR's
// live lineage; never fetched-only): one -> its next; more -> select_lineage / several_actionable
// (next_lineage the first: its own next is the one to take); none -> the PR's live lineage's next
// (none and its reason) when there is one, else the live candidate: start / no_lineage when start
// would take it (start / context_required when gentle-ai.requireContext is true), else none /
// clean, candidate_burned (merged when the burn was the asked PR's lineage's),
// target_not_computable or budget_exceeded. The top-level next always
// names its entry (the first actionable one for several_actionable); only start and none name none.
// An unrelated entry is never picked while an actionable one exists. After an export (AfterExport):
// export becomes verdict / context_exported (verdict / approve_capped when the round's APPROVE is
// capped).
//
// The APPROVE cap (transaction/context_cap.h) is the one refusal a verdict can meet that next
// cannot avoid by naming another action: `approve_capped` says that the verdict due may be any
// but APPROVE (which is `context_unavailable`), and `context_required` that the round start or
// revise opens must be bound with --context, or its APPROVE will be capped.
#ifndef GENTLE_TRANSACTION_NEXT_ACTION_H_
#define GENTLE_TRANSACTION_NEXT_ACTION_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "store/name_table.h"
#include "store/review_state.h"
#include "transaction/applicability.h"
#include "transaction/status_role.h"

namespace gentle::transaction {

// A closed vocabulary: exactly these ten names.
enum class NextAction {
  kStart,
  kExport,
  kVerdict,
  kRevise,
  kBurn,
  kSelectLineage,
  kRepair,
  kNone,
  kAbandon,
  kPost,
};

inline constexpr store::NameTable kNextActionNames = store::MakeNameTable<NextAction>({
    {NextAction::kStart, "start"},
    {NextAction::kExport, "export"},
    {NextAction::kVerdict, "verdict"},
    {NextAction::kRevise, "revise"},
    {NextAction::kBurn, "burn"},
    {NextAction::kSelectLineage, "select_lineage"},
    {NextAction::kRepair, "repair"},
    {NextAction::kNone, "none"},
    {NextAction::kAbandon, "abandon"},
    {NextAction::kPost, "post"},
});
inline constexpr const auto& kAllNextActions = kNextActionNames.values;

constexpr std::string_view NextActionName(NextAction action) {
  return kNextActionNames.Name(action);
}
// nullopt for any other text.
constexpr std::optional<NextAction> ParseNextAction(std::string_view name) {
  return kNextActionNames.Parse(name);
}

// Why the action is the one named: a closed vocabulary, one name each (kNextReasonNames).
enum class NextReason {
  kNoLineage,            // start: no lineage holds the live candidate, and start would take it
  kReviewDue,            // export: reviewing, its frozen diff fits the budget
  kContextExported,      // verdict: the context has just been exported
  kCandidateChanged,     // revise: sent back, and the author changed the candidate
  kApproved,             // burn: approved; the acknowledgement is not spent yet
  kAmbiguous,            // select_lineage: more than one lineage claims the live target
  kSeveralActionable,    // select_lineage: more than one lineage here has an action due
  kCorrupted,            // abandon: the record cannot be read or does not verify
  kIncomplete,           // repair: a lineage directory without a record
  kWaitingForAuthor,     // none: sent back, and the live candidate is still the one sent back
  kOtherWorktree,        // none: sent back, and it was started in another worktree of the clone
  kTargetNotComputable,  // none: the live target cannot be computed here
  kFetchedOnly,          // none: read from a remote's history; import it to act on it
  kBudgetExceeded,       // none: the frozen diff (or the candidate to capture) is over the budget
  kObjectsMissing,       // none: the frozen trees or blobs are not in this object database
  kEscalated,            // none: NEEDS_DISCUSSION was given; a person decides
  kInvalidated,          // none: invalidated; nothing more happens to it
  kDecisionRequired,     // none: a decision is required outside the loop
  kUnknownState,         // none: a state this tool does not know
  kClean,                // none: the live candidate has no changed paths
  kCandidateBurned,      // none: the live candidate's approval was already spent here
  kContextRequired,      // start, revise: gentle-ai.requireContext is true; bind with --context
  kApproveCapped,        // export, verdict: the round's APPROVE is context_unavailable
  kMerged,   // burn: approved, and its candidate is committed on the branch; none: the asked PR's
             // lineage was burned, and its head has not moved since
  kPostDue,  // post: the round's newest verdict is not posted yet
  kReconciliationPrepared,  // none: another tool's batch-reconciliation marker holds the store
  kReviewPending,    // none (--role author): the lineage awaits its reviewer's export, verdict or
                     // post
  kNothingToReview,  // none (--role reviewer): no lineage of the clone awaits a review or a post
};

inline constexpr store::NameTable kNextReasonNames = store::MakeNameTable<NextReason>({
    {NextReason::kNoLineage, "no_lineage"},
    {NextReason::kReviewDue, "review_due"},
    {NextReason::kContextExported, "context_exported"},
    {NextReason::kCandidateChanged, "candidate_changed"},
    {NextReason::kApproved, "approved"},
    {NextReason::kAmbiguous, "ambiguous"},
    {NextReason::kSeveralActionable, "several_actionable"},
    {NextReason::kCorrupted, "corrupted"},
    {NextReason::kIncomplete, "incomplete"},
    {NextReason::kWaitingForAuthor, "waiting_for_author"},
    {NextReason::kOtherWorktree, "other_worktree"},
    {NextReason::kTargetNotComputable, "target_not_computable"},
    {NextReason::kFetchedOnly, "fetched_only"},
    {NextReason::kBudgetExceeded, "budget_exceeded"},
    {NextReason::kObjectsMissing, "objects_missing"},
    {NextReason::kEscalated, "escalated"},
    {NextReason::kInvalidated, "invalidated"},
    {NextReason::kDecisionRequired, "decision_required"},
    {NextReason::kUnknownState, "unknown_state"},
    {NextReason::kClean, "clean"},
    {NextReason::kCandidateBurned, "candidate_burned"},
    {NextReason::kContextRequired, "context_required"},
    {NextReason::kApproveCapped, "approve_capped"},
    {NextReason::kMerged, "merged"},
    {NextReason::kPostDue, "post_due"},
    {NextReason::kReconciliationPrepared, "reconciliation_prepared"},
    {NextReason::kReviewPending, "review_pending"},
    {NextReason::kNothingToReview, "nothing_to_review"},
});
inline constexpr const auto& kAllNextReasons = kNextReasonNames.values;

constexpr std::string_view NextReasonName(NextReason reason) {
  return kNextReasonNames.Name(reason);
}
// nullopt for any other text.
constexpr std::optional<NextReason> ParseNextReason(std::string_view name) {
  return kNextReasonNames.Parse(name);
}

struct Next {
  NextAction action = NextAction::kNone;
  NextReason reason = NextReason::kClean;

  bool operator==(const Next&) const = default;
};

// Whether a frozen diff, or a live candidate, would pass export's budget (export/patch_budget.h).
enum class Fit { kFits, kOverBudget, kObjectsMissing };

// What the derivation reads of one lineage.
struct EntryFacts {
  // The record's state; nullopt for a state this build does not know, or no readable record.
  std::optional<store::ReviewState> state;
  Applicability applicability = Applicability::kUnrelated;
  UnrelatedReason unrelated = UnrelatedReason::kNotUnrelated;
  bool fetched_only = false;     // read from a fetched history: no local record to mutate
  bool foreign = false;          // its record names another worktree of the clone
  Fit frozen = Fit::kFits;       // reviewing: its current snapshot's diff (probed by the caller)
  Fit live = Fit::kFits;         // correction_required, target moved: the candidate revise takes
  bool approve_capped = false;   // its current round's APPROVE is capped (context_cap.h)
  bool require_context = false;  // git config gentle-ai.requireContext is true (or unreadable)
  // approved: its candidate tree is a commit's tree on HEAD's first-parent history (probed by
  // the caller, bounded).
  bool merged = false;
  // The current round is bound to a forge context (start or revise --context), its newest verdict
  // is the history's tip, and the seen ledger records no posted id since (probed by the caller).
  bool post_due = false;
  // The live lineage of this worktree that holds the PR status was asked about (its selector is
  // the one asked, a commit range or a round bound to a forge context): start with that selector
  // answers or revises it rather than forking a second lineage, so the worktree's next is its
  // next whatever its applicability (one live lineage per PR).
  bool pr_lineage = false;
};

Next EntryNext(const EntryFacts& facts);

// The entry's next for `role` (nullopt: the lineage's own, EntryNext's, as export-context's
// envelope gives it; status always asks for a role, the author's by default). An author is told no
// reviewer action (export, verdict, post: none / review_pending) and acts on no lineage of another
// worktree (none / other_worktree); a reviewer is told no author action (start, revise, burn,
// select_lineage: none / waiting_for_author) and exports any reviewing lineage, ambiguous or of
// another worktree. abandon, repair and none stand for both.
Next RoleNext(const EntryFacts& facts, std::optional<StatusRole> role);

// Why EntryNext says none for a lineage that waits on its author (correction_required on the
// very candidate that was sent back), for the status entry's `detail`; empty otherwise.
std::string_view WaitingDetail(const EntryFacts& facts);

// Whether the entry counts towards the worktree's next action (see above).
bool IsActionable(const EntryFacts& facts);

// Whether `review start` of the live candidate can start it.
enum class LiveStart {
  kStartable,
  kClean,        // the live candidate has no changed paths
  kBurned,       // its identity already has a burn tombstone in this worktree
  kPrBurned,     // that tombstone is the burn of the asked PR's lineage (transaction/pr_lineage.h)
  kUnavailable,  // it cannot be computed here (e.g. a bare repository)
  kOverBudget,   // its frozen diff would pass the budget: start refuses it
};

// The worktree's next action and the entry it is about (an index into `entries`; nullopt for
// start and none).
struct Picked {
  Next next;
  std::optional<size_t> entry;
};

// The worktree's next action over all of its entries; `live_start` is asked only when no entry is
// actionable; `require_context`: git config gentle-ai.requireContext is true (or unreadable).
// With `role` (status --role; status always passes one, the author's by default; nullopt is the
// pick over EntryNext, both roles' actions): the author's pick is the one above over RoleNext, and
// an entry held back for its reviewer (none / review_pending) is named before the live candidate
// (start would answer that lineage); the reviewer's is the first entry, of any worktree, whose
// RoleNext is post, else the first whose is export, else none / nothing_to_review (a reviewer never
// starts).
Picked PickNext(const std::vector<EntryFacts>& entries,
                const std::function<LiveStart()>& live_start, bool require_context = false,
                std::optional<StatusRole> role = std::nullopt);

// PickNext's action alone.
Next EnvelopeNext(const std::vector<EntryFacts>& entries,
                  const std::function<LiveStart()>& live_start, bool require_context = false);

// The next action once the context of a lineage whose next is `status_next` has been exported:
// export becomes verdict (its reason context_exported, or approve_capped kept), anything else
// stays.
Next AfterExport(Next status_next);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_NEXT_ACTION_H_
