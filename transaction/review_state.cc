#include "transaction/review_state.h"

namespace gentle::transaction {

std::string_view ReviewStateName(ReviewState state) {
  switch (state) {
    case ReviewState::kReviewing:
      return "reviewing";
    case ReviewState::kApproved:
      return "approved";
    case ReviewState::kCorrectionRequired:
      return "correction_required";
    case ReviewState::kEscalated:
      return "escalated";
    case ReviewState::kInvalidated:
      return "invalidated";
  }
  return "reviewing";
}

std::optional<ReviewState> ParseReviewState(std::string_view name) {
  for (ReviewState s :
       {ReviewState::kReviewing, ReviewState::kApproved, ReviewState::kCorrectionRequired,
        ReviewState::kEscalated, ReviewState::kInvalidated}) {
    if (ReviewStateName(s) == name) return s;
  }
  return std::nullopt;
}

bool IsTerminal(ReviewState state) {
  return state == ReviewState::kApproved || state == ReviewState::kEscalated ||
         state == ReviewState::kInvalidated;
}

}  // namespace gentle::transaction
