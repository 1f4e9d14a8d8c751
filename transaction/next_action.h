// NextAction: the one action a harness should take now, and why (docs/lifecycle.md, docs/loop.md;
// docs/lifecycle.md "Next action"), derived from a lineage's state and applicability so that a
// harness needs no state machine of its own. The rule: `next` never names an action the tool
// would then refuse; where every action would be refused (or none is due), it is `none`, and
// `next_reason` says why. Pure: no I/O; status gathers the facts (including the budget probes
// below) and prints the names.
//
// Per lineage (EntryNext), the first row that applies:
//   corrupted / incomplete                                     repair / corrupted, incomplete
//   ambiguous                                                  select_lineage / ambiguous
//   fetched-only (read from a remote's history; nothing here)  none / fetched_only
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
//   approved                                                   burn / approved
//   escalated, invalidated, decision_required                  none / the state's name
//   any other state                                            none / unknown_state
// For a whole worktree (EnvelopeNext): repair if any entry needs it (that entry's reason); else
// the actionable entries (current_target or ambiguous here, or correction_required with a moved
// live target and started here; never fetched-only): one -> its next; more -> select_lineage /
// several_actionable; none -> the live candidate: start / no_lineage when start would take it
// (start / context_required when gentle-ai.requireContext is true), else none / clean,
// candidate_burned, target_not_computable or budget_exceeded.
// After an export (AfterExport): export becomes verdict / context_exported (verdict /
// approve_capped when the round's APPROVE is capped).
//
// The APPROVE cap (transaction/context_cap.h) is the one refusal a verdict can meet that next
// cannot avoid by naming another action: `approve_capped` says that the verdict due may be any
// but APPROVE (which is `context_unavailable`), and `context_required` that the round start or
// revise opens must be bound with --context, or its APPROVE will be capped.
#ifndef GENTLE_TRANSACTION_NEXT_ACTION_H_
#define GENTLE_TRANSACTION_NEXT_ACTION_H_

#include <functional>
#include <string_view>
#include <vector>

#include "transaction/applicability.h"

namespace gentle::transaction {

// A closed vocabulary: exactly these eight names.
enum class NextAction { kStart, kExport, kVerdict, kRevise, kBurn, kSelectLineage, kRepair, kNone };

// "start", "export", "verdict", "revise", "burn", "select_lineage", "repair", "none".
std::string_view NextActionName(NextAction action);

// Why the action is the one named: a closed vocabulary, one name each (NextReasonName).
enum class NextReason {
  kNoLineage,            // start: no lineage holds the live candidate, and start would take it
  kReviewDue,            // export: reviewing, its frozen diff fits the budget
  kContextExported,      // verdict: the context has just been exported
  kCandidateChanged,     // revise: sent back, and the author changed the candidate
  kApproved,             // burn: approved; the acknowledgement is not spent yet
  kAmbiguous,            // select_lineage: more than one lineage claims the live target
  kSeveralActionable,    // select_lineage: more than one lineage here has an action due
  kCorrupted,            // repair: the record cannot be read or does not verify
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
};

// "no_lineage", "review_due", "context_exported", "candidate_changed", "approved", "ambiguous",
// "several_actionable", "corrupted", "incomplete", "waiting_for_author", "other_worktree",
// "target_not_computable", "fetched_only", "budget_exceeded", "objects_missing", "escalated",
// "invalidated", "decision_required", "unknown_state", "clean", "candidate_burned",
// "context_required", "approve_capped".
std::string_view NextReasonName(NextReason reason);

struct Next {
  NextAction action = NextAction::kNone;
  NextReason reason = NextReason::kClean;

  bool operator==(const Next&) const = default;
};

// Whether a frozen diff, or a live candidate, would pass export's budget (export/patch_budget.h).
enum class Fit { kFits, kOverBudget, kObjectsMissing };

// What the derivation reads of one lineage.
struct EntryFacts {
  std::string_view state;  // the record's state name; empty when there is no readable record
  Applicability applicability = Applicability::kUnrelated;
  UnrelatedReason unrelated = UnrelatedReason::kNotUnrelated;
  bool fetched_only = false;     // read from a fetched history: no local record to mutate
  bool foreign = false;          // its record names another worktree of the clone
  Fit frozen = Fit::kFits;       // reviewing: its current snapshot's diff (probed by the caller)
  Fit live = Fit::kFits;         // correction_required, target moved: the candidate revise takes
  bool approve_capped = false;   // its current round's APPROVE is capped (context_cap.h)
  bool require_context = false;  // git config gentle-ai.requireContext is true (or unreadable)
};

Next EntryNext(const EntryFacts& facts);

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
  kUnavailable,  // it cannot be computed here (e.g. a bare repository)
  kOverBudget,   // its frozen diff would pass the budget: start refuses it
};

// The worktree's next action over all of its entries; `live_start` is asked only when no entry is
// actionable; `require_context`: git config gentle-ai.requireContext is true (or unreadable).
Next EnvelopeNext(const std::vector<EntryFacts>& entries,
                  const std::function<LiveStart()>& live_start, bool require_context = false);

// The next action once the context of a lineage whose next is `status_next` has been exported:
// export becomes verdict (its reason context_exported, or approve_capped kept), anything else
// stays.
Next AfterExport(Next status_next);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_NEXT_ACTION_H_
