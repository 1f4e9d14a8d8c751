// The lineage state machine's states, by their on-disk names (gentle-ai compact-v2 vocabulary).
#ifndef GENTLE_TRANSACTION_REVIEW_STATE_H_
#define GENTLE_TRANSACTION_REVIEW_STATE_H_

#include <optional>
#include <string_view>

namespace gentle::transaction {

enum class ReviewState {
  kReviewing,
  kApproved,
  kCorrectionRequired,
  kEscalated,
  kInvalidated,
};

std::string_view ReviewStateName(ReviewState state);
std::optional<ReviewState> ParseReviewState(std::string_view name);
// Terminal states accept no verdict and cannot be abandoned.
bool IsTerminal(ReviewState state);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_REVIEW_STATE_H_
