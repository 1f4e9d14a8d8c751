#include "transaction/next_action.h"

#include <optional>

#include "store/review_state.h"

namespace gentle::transaction {

using store::ReviewState;

namespace {

constexpr Next None(NextReason reason) { return {NextAction::kNone, reason}; }

bool IsCorrectionRequired(const EntryFacts& f) {
  return f.state == ReviewState::kCorrectionRequired;
}

// Approved, its candidate committed on the branch, and no longer the live target (while it is, the
// burn is the ordinary one).
bool IsMerged(const EntryFacts& f) {
  return f.merged && f.applicability != Applicability::kCurrentTarget &&
         f.applicability != Applicability::kAmbiguous && f.state == ReviewState::kApproved;
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
  if (!f.state) return None(NextReason::kUnknownState);
  switch (*f.state) {
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
  if (f.pr_lineage && !f.foreign) return EntryNext(f).action != NextAction::kNone;
  if (f.applicability == Applicability::kCurrentTarget ||
      f.applicability == Applicability::kAmbiguous) {
    return true;
  }
  if (f.foreign) return false;
  if (f.post_due) return true;
  return (IsCorrectionRequired(f) && f.unrelated == UnrelatedReason::kTargetMoved) || IsMerged(f);
}

Next RoleNext(const EntryFacts& f, std::optional<StatusRole> role) {
  if (!role) return EntryNext(f);
  if (*role == StatusRole::kReviewer) {
    // A review does not depend on which lineage claims the live target, or where it was captured.
    EntryFacts asked = f;
    if (asked.applicability == Applicability::kAmbiguous) {
      asked.applicability = Applicability::kCurrentTarget;
    }
    const Next next = EntryNext(asked);
    switch (next.action) {
      case NextAction::kStart:
      case NextAction::kRevise:
      case NextAction::kBurn:
      case NextAction::kSelectLineage:
        return None(NextReason::kWaitingForAuthor);
      default:
        return next;
    }
  }
  const Next next = EntryNext(f);
  switch (next.action) {
    case NextAction::kAbandon:
    case NextAction::kRepair:
    case NextAction::kNone:
      return next;
    case NextAction::kExport:
    case NextAction::kVerdict:
    case NextAction::kPost:
      return None(f.foreign ? NextReason::kOtherWorktree : NextReason::kReviewPending);
    default:
      return f.foreign ? None(NextReason::kOtherWorktree) : next;
  }
}

namespace {

Picked ReviewerPick(const std::vector<EntryFacts>& entries) {
  for (NextAction wanted : {NextAction::kPost, NextAction::kExport}) {
    for (size_t i = 0; i < entries.size(); ++i) {
      if (entries[i].fetched_only) continue;
      const Next next = RoleNext(entries[i], StatusRole::kReviewer);
      if (next.action == wanted) return {next, i};
    }
  }
  return {None(NextReason::kNothingToReview), std::nullopt};
}

}  // namespace

Picked PickNext(const std::vector<EntryFacts>& entries,
                const std::function<LiveStart()>& live_start, bool require_context,
                std::optional<StatusRole> role) {
  for (size_t i = 0; i < entries.size(); ++i) {
    const Next next = EntryNext(entries[i]);
    if (next.action == NextAction::kAbandon || next.action == NextAction::kRepair) {
      return {next, i};
    }
  }
  if (role == StatusRole::kReviewer) return ReviewerPick(entries);
  std::optional<size_t> first, held;
  size_t count = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!IsActionable(entries[i])) {
      if (!held && entries[i].pr_lineage && !entries[i].foreign && !entries[i].fetched_only) {
        held = i;
      }
      continue;
    }
    if (role && RoleNext(entries[i], role).action == NextAction::kNone) {
      if (!held) held = i;
      continue;
    }
    if (!first) first = i;
    ++count;
  }
  if (count > 1) return {{NextAction::kSelectLineage, NextReason::kSeveralActionable}, first};
  if (count == 1) return {RoleNext(entries[*first], role), first};
  // The asked PR's live lineage, or a lineage the author waits on its reviewer for: start would
  // answer it rather than start another, so its none is the answer.
  if (held) return {RoleNext(entries[*held], role), std::nullopt};
  switch (live_start()) {
    case LiveStart::kStartable:
      return {{NextAction::kStart,
               require_context ? NextReason::kContextRequired : NextReason::kNoLineage},
              std::nullopt};
    case LiveStart::kClean:
      return {None(NextReason::kClean), std::nullopt};
    case LiveStart::kBurned:
      return {None(NextReason::kCandidateBurned), std::nullopt};
    case LiveStart::kPrBurned:
      return {None(NextReason::kMerged), std::nullopt};
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
