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

namespace {

bool NeedsRepair(const EntryFacts& f) {
  return f.applicability == Applicability::kCorrupted ||
         f.applicability == Applicability::kIncomplete;
}

bool IsCorrectionRequired(const EntryFacts& f) {
  return store::ParseReviewState(f.state) == ReviewState::kCorrectionRequired;
}

}  // namespace

NextAction EntryNext(const EntryFacts& f) {
  if (NeedsRepair(f)) return NextAction::kRepair;
  if (f.applicability == Applicability::kAmbiguous) return NextAction::kSelectLineage;
  if (f.fetched_only) return NextAction::kNone;
  const std::optional<ReviewState> state = store::ParseReviewState(f.state);
  if (!state) return NextAction::kNone;
  switch (*state) {
    case ReviewState::kReviewing:
      return NextAction::kExport;
    case ReviewState::kCorrectionRequired:
      return f.unrelated == UnrelatedReason::kTargetMoved ? NextAction::kRevise : NextAction::kNone;
    case ReviewState::kApproved:
      return NextAction::kBurn;
    case ReviewState::kEscalated:
    case ReviewState::kInvalidated:
    case ReviewState::kDecisionRequired:
      return NextAction::kNone;
  }
  return NextAction::kNone;  // unreachable: the switch names every enumerator
}

std::string_view WaitingDetail(const EntryFacts& f) {
  if (!f.fetched_only && f.applicability == Applicability::kCurrentTarget &&
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
  return IsCorrectionRequired(f) && f.unrelated == UnrelatedReason::kTargetMoved;
}

NextAction EnvelopeNext(const std::vector<EntryFacts>& entries,
                        const std::function<LiveStart()>& live_start) {
  const EntryFacts* actionable = nullptr;
  size_t count = 0;
  for (const EntryFacts& f : entries) {
    if (NeedsRepair(f)) return NextAction::kRepair;
  }
  for (const EntryFacts& f : entries) {
    if (!IsActionable(f)) continue;
    actionable = &f;
    ++count;
  }
  if (count > 1) return NextAction::kSelectLineage;
  if (count == 1) return EntryNext(*actionable);
  return live_start() == LiveStart::kStartable ? NextAction::kStart : NextAction::kNone;
}

NextAction AfterExport(NextAction status_next) {
  return status_next == NextAction::kExport ? NextAction::kVerdict : status_next;
}

}  // namespace gentle::transaction
