#include "store/review_state.h"

#include "store/name_table.h"

namespace gentle::store {
namespace {

constexpr NameTable kStateNames = MakeNameTable<ReviewState>({
    {ReviewState::kReviewing, "reviewing"},
    {ReviewState::kApproved, "approved"},
    {ReviewState::kCorrectionRequired, "correction_required"},
    {ReviewState::kEscalated, "escalated"},
    {ReviewState::kInvalidated, "invalidated"},
    {ReviewState::kDecisionRequired, "decision_required"},
});

}  // namespace

std::string_view ReviewStateName(ReviewState state) { return kStateNames.Name(state); }

std::optional<ReviewState> ParseReviewState(std::string_view name) {
  return kStateNames.Parse(name);
}

bool IsTerminal(ReviewState state) {
  return state == ReviewState::kApproved || state == ReviewState::kEscalated ||
         state == ReviewState::kInvalidated;
}

bool AcceptsAbandon(std::string_view name) {
  std::optional<ReviewState> state = ParseReviewState(name);
  return !state || (!IsTerminal(*state) && *state != ReviewState::kDecisionRequired);
}

bool IsState(std::string_view name, ReviewState state) { return ParseReviewState(name) == state; }

}  // namespace gentle::store
