#include "store/review_state.h"

namespace gentle::store {
namespace {

struct StateName {
  ReviewState state;
  std::string_view name;
};

constexpr StateName kStateNames[] = {
    {ReviewState::kReviewing, "reviewing"},
    {ReviewState::kApproved, "approved"},
    {ReviewState::kCorrectionRequired, "correction_required"},
    {ReviewState::kEscalated, "escalated"},
    {ReviewState::kInvalidated, "invalidated"},
    {ReviewState::kDecisionRequired, "decision_required"},
};

}  // namespace

std::string_view ReviewStateName(ReviewState state) {
  for (const StateName& entry : kStateNames) {
    if (entry.state == state) return entry.name;
  }
  return "reviewing";  // unreachable: every enumerator is in the table
}

std::optional<ReviewState> ParseReviewState(std::string_view name) {
  for (const StateName& entry : kStateNames) {
    if (entry.name == name) return entry.state;
  }
  return std::nullopt;
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
