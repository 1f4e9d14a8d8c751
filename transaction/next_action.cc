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
  }
  return "none";  // unreachable: the switch names every enumerator
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
  }
  return "unknown_state";  // unreachable: the switch names every enumerator
}

namespace {

constexpr Next None(NextReason reason) { return {NextAction::kNone, reason}; }

bool IsCorrectionRequired(const EntryFacts& f) {
  return store::ParseReviewState(f.state) == ReviewState::kCorrectionRequired;
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
    return {NextAction::kRepair, NextReason::kCorrupted};
  }
  if (f.applicability == Applicability::kIncomplete) {
    return {NextAction::kRepair, NextReason::kIncomplete};
  }
  if (f.applicability == Applicability::kAmbiguous) {
    return {NextAction::kSelectLineage, NextReason::kAmbiguous};
  }
  if (f.fetched_only) return None(NextReason::kFetchedOnly);
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
      return {NextAction::kBurn, NextReason::kApproved};
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
  return IsCorrectionRequired(f) && !f.foreign && f.unrelated == UnrelatedReason::kTargetMoved;
}

Next EnvelopeNext(const std::vector<EntryFacts>& entries,
                  const std::function<LiveStart()>& live_start, bool require_context) {
  for (const EntryFacts& f : entries) {
    const Next next = EntryNext(f);
    if (next.action == NextAction::kRepair) return next;
  }
  const EntryFacts* actionable = nullptr;
  size_t count = 0;
  for (const EntryFacts& f : entries) {
    if (!IsActionable(f)) continue;
    actionable = &f;
    ++count;
  }
  if (count > 1) return {NextAction::kSelectLineage, NextReason::kSeveralActionable};
  if (count == 1) return EntryNext(*actionable);
  switch (live_start()) {
    case LiveStart::kStartable:
      return {NextAction::kStart,
              require_context ? NextReason::kContextRequired : NextReason::kNoLineage};
    case LiveStart::kClean:
      return None(NextReason::kClean);
    case LiveStart::kBurned:
      return None(NextReason::kCandidateBurned);
    case LiveStart::kUnavailable:
      return None(NextReason::kTargetNotComputable);
    case LiveStart::kOverBudget:
      return None(NextReason::kBudgetExceeded);
  }
  return None(NextReason::kTargetNotComputable);  // unreachable
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
