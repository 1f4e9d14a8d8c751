#include "store/review_state.h"

namespace gentle::store {

bool IsTerminal(ReviewState state) {
  return state == ReviewState::kApproved || state == ReviewState::kEscalated ||
         state == ReviewState::kInvalidated;
}

bool AcceptsAbandon(const StateName& state) {
  const std::optional<ReviewState> review = state.state();
  if (!review) return true;  // unknown to this build, or a terminal name no record holds
  return !IsTerminal(*review) && *review != ReviewState::kDecisionRequired;
}

}  // namespace gentle::store
