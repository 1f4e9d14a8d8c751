// ReviewState: the lineage state machine's states, one enum with one name table (their on-disk
// names, gentle-ai's compact-v2 vocabulary). Code compares states as enum values; the names are
// only for reading and writing records. A record may carry a state this tool does not know (a
// newer gentle-ai's): ParseReviewState answers nothing for it, and each verb decides.
#ifndef GENTLE_STORE_REVIEW_STATE_H_
#define GENTLE_STORE_REVIEW_STATE_H_

#include <optional>
#include <string_view>

namespace gentle::store {

enum class ReviewState {
  kReviewing,
  kApproved,
  kCorrectionRequired,
  kEscalated,
  kInvalidated,
  // gentle-ai's flag-gated "decision needed" state: accepts no verdict and is not abandoned.
  kDecisionRequired,
};

std::string_view ReviewStateName(ReviewState state);
std::optional<ReviewState> ParseReviewState(std::string_view name);
// Terminal states accept no verdict and cannot be abandoned.
bool IsTerminal(ReviewState state);
// Whether `abandon` may retire a lineage in `state` (`name`, when the state is not one we know):
// not a terminal state and not decision_required; unknown states may be abandoned.
bool AcceptsAbandon(std::string_view name);
// Whether a record's state `name` is `state`.
bool IsState(std::string_view name, ReviewState state);

}  // namespace gentle::store

#endif  // GENTLE_STORE_REVIEW_STATE_H_
