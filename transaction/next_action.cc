#include "transaction/next_action.h"

#include <optional>

#include "store/review_state.h"

namespace gentle::transaction {

using store::ReviewState;

std::string_view NextActionName(NextAction action) {
  switch (action) {
    case NextAction::kStart:
      return "start";
    case NextAction::kExport:
      return "export";
    case NextAction::kVerdict:
      return "verdict";
    case NextAction::kRevise:
      return "revise";
    case NextAction::kBurn:
      return "burn";
    case NextAction::kSelectLineage:
      return "select_lineage";
    case NextAction::kRepair:
      return "repair";
    case NextAction::kNone:
      return "none";
    case NextAction::kAbandon:
      return "abandon";
    case NextAction::kPost:
      return "post";
  }
  return "none";  // unreachable: the switch names every enumerator
}

std::optional<NextAction> ParseNextAction(std::string_view name) {
  for (NextAction action : kAllNextActions) {
    if (NextActionName(action) == name) return action;
  }
  return std::nullopt;
}

std::string_view NextReasonName(NextReason reason) {
  switch (reason) {
    case NextReason::kNoLineage:
      return "no_lineage";
    case NextReason::kReviewDue:
      return "review_due";
    case NextReason::kContextExported:
      return "context_exported";
    case NextReason::kCandidateChanged:
      return "candidate_changed";
    case NextReason::kApproved:
      return "approved";
    case NextReason::kAmbiguous:
      return "ambiguous";
    case NextReason::kSeveralActionable:
      return "several_actionable";
    case NextReason::kCorrupted:
      return "corrupted";
    case NextReason::kIncomplete:
      return "incomplete";
    case NextReason::kWaitingForAuthor:
      return "waiting_for_author";
    case NextReason::kOtherWorktree:
      return "other_worktree";
    case NextReason::kTargetNotComputable:
      return "target_not_computable";
    case NextReason::kFetchedOnly:
      return "fetched_only";
    case NextReason::kBudgetExceeded:
      return "budget_exceeded";
    case NextReason::kObjectsMissing:
      return "objects_missing";
    case NextReason::kEscalated:
      return "escalated";
    case NextReason::kInvalidated:
      return "invalidated";
    case NextReason::kDecisionRequired:
      return "decision_required";
    case NextReason::kUnknownState:
      return "unknown_state";
    case NextReason::kClean:
      return "clean";
    case NextReason::kCandidateBurned:
      return "candidate_burned";
    case NextReason::kContextRequired:
      return "context_required";
    case NextReason::kApproveCapped:
      return "approve_capped";
    case NextReason::kMerged:
      return "merged";
    case NextReason::kPostDue:
      return "post_due";
    case NextReason::kReconciliationPrepared:
      return "reconciliation_prepared";
  }
  return "unknown_state";  // unreachable: the switch names every enumerator
}

std::optional<NextReason> ParseNextReason(std::string_view name) {
  for (NextReason reason : kAllNextReasons) {
    if (NextReasonName(reason) == name) return reason;
  }
  return std::nullopt;
}

namespace {

constexpr Next None(NextReason reason) { return {NextAction::kNone, reason}; }

bool IsCorrectionRequired(const EntryFacts& f) {
  return store::ParseReviewState(f.state) == ReviewState::kCorrectionRequired;
}

// Approved, its candidate committed on the branch, and no longer the live target (while it is, the
// burn is the ordinary one).
bool IsMerged(const EntryFacts& f) {
  return f.merged && f.applicability != Applicability::kCurrentTarget &&
         f.applicability != Applicability::kAmbiguous &&
         store::ParseReviewState(f.state) == ReviewState::kApproved;
}

// The refusal a probed budget fact stands for, or nullopt when it fits.
std::optional<Next> Unfit(Fit fit) {
  if (fit == Fit::kOverBudget) return None(NextReason::kBudgetExceeded);
  if (fit == Fit::kObjectsMissing) return None(NextReason::kObjectsMissing);
  return std::nullopt;
}

Next CorrectionNext(const EntryFacts& f) {
  if (f.foreign) return None(NextReason::kOtherWorktree);
  switch (f.unrelated) {
    case UnrelatedReason::kTargetMoved:
      if (std::optional<Next> unfit = Unfit(f.live)) return *unfit;
      return {NextAction::kRevise,
              f.require_context ? NextReason::kContextRequired : NextReason::kCandidateChanged};
    case UnrelatedReason::kNotComputable:
      return None(NextReason::kTargetNotComputable);
    case UnrelatedReason::kOtherWorktree:
      return None(NextReason::kOtherWorktree);
    case UnrelatedReason::kNotUnrelated:
      break;
  }
  return None(NextReason::kWaitingForAuthor);
}

}  // namespace

Next EntryNext(const EntryFacts& f) {
  if (f.applicability == Applicability::kCorrupted) {
    return {NextAction::kAbandon, NextReason::kCorrupted};
  }
  if (f.applicability == Applicability::kIncomplete) {
    return {NextAction::kRepair, NextReason::kIncomplete};
  }
  if (f.applicability == Applicability::kAmbiguous) {
    return {NextAction::kSelectLineage, NextReason::kAmbiguous};
  }
  if (f.fetched_only) return None(NextReason::kFetchedOnly);
  if (f.post_due) return {NextAction::kPost, NextReason::kPostDue};
  const std::optional<ReviewState> state = store::ParseReviewState(f.state);
  if (!state) return None(NextReason::kUnknownState);
  switch (*state) {
    case ReviewState::kReviewing:
      if (std::optional<Next> unfit = Unfit(f.frozen)) return *unfit;
      return {NextAction::kExport,
              f.approve_capped ? NextReason::kApproveCapped : NextReason::kReviewDue};
    case ReviewState::kCorrectionRequired:
      return CorrectionNext(f);
    case ReviewState::kApproved:
      return {NextAction::kBurn, IsMerged(f) ? NextReason::kMerged : NextReason::kApproved};
    case ReviewState::kEscalated:
      return None(NextReason::kEscalated);
    case ReviewState::kInvalidated:
      return None(NextReason::kInvalidated);
    case ReviewState::kDecisionRequired:
      return None(NextReason::kDecisionRequired);
  }
  return None(NextReason::kUnknownState);  // unreachable: the switch names every enumerator
}

std::string_view WaitingDetail(const EntryFacts& f) {
  if (!f.fetched_only && !f.foreign && f.applicability == Applicability::kCurrentTarget &&
      IsCorrectionRequired(f)) {
    return "waiting for a changed candidate: the live target is still the one sent back";
  }
  return {};
}

bool IsActionable(const EntryFacts& f) {
  if (f.fetched_only) return false;
  if (f.applicability == Applicability::kCurrentTarget ||
      f.applicability == Applicability::kAmbiguous) {
    return true;
  }
  if (f.foreign) return false;
  if (f.post_due) return true;
  return (IsCorrectionRequired(f) && f.unrelated == UnrelatedReason::kTargetMoved) || IsMerged(f);
}

Picked PickNext(const std::vector<EntryFacts>& entries,
                const std::function<LiveStart()>& live_start, bool require_context) {
  for (size_t i = 0; i < entries.size(); ++i) {
    const Next next = EntryNext(entries[i]);
    if (next.action == NextAction::kAbandon || next.action == NextAction::kRepair) {
      return {next, i};
    }
  }
  std::optional<size_t> first;
  size_t count = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!IsActionable(entries[i])) continue;
    if (!first) first = i;
    ++count;
  }
  if (count > 1) return {{NextAction::kSelectLineage, NextReason::kSeveralActionable}, first};
  if (count == 1) return {EntryNext(entries[*first]), first};
  switch (live_start()) {
    case LiveStart::kStartable:
      return {{NextAction::kStart,
               require_context ? NextReason::kContextRequired : NextReason::kNoLineage},
              std::nullopt};
    case LiveStart::kClean:
      return {None(NextReason::kClean), std::nullopt};
    case LiveStart::kBurned:
      return {None(NextReason::kCandidateBurned), std::nullopt};
    case LiveStart::kUnavailable:
      return {None(NextReason::kTargetNotComputable), std::nullopt};
    case LiveStart::kOverBudget:
      return {None(NextReason::kBudgetExceeded), std::nullopt};
  }
  return {None(NextReason::kTargetNotComputable), std::nullopt};  // unreachable
}

Next EnvelopeNext(const std::vector<EntryFacts>& entries,
                  const std::function<LiveStart()>& live_start, bool require_context) {
  return PickNext(entries, live_start, require_context).next;
}

Next AfterExport(Next status_next) {
  if (status_next.action == NextAction::kExport) {
    return {NextAction::kVerdict, status_next.reason == NextReason::kApproveCapped
                                      ? NextReason::kApproveCapped
                                      : NextReason::kContextExported};
  }
  return status_next;
}

}  // namespace gentle::transaction
