// ReviewEvent: the event a PR review is posted with (docs/loop.md "review post"), in the forges'
// words, one enum with one name table (header-only): GitHub's APPROVE, Gitea's APPROVED (its
// spelling of an approval), and REQUEST_CHANGES and COMMENT on both. A post intent's `event`
// column (watch/post_intents.h) and the review request's `event` member hold the names; a
// comment posted as an issue comment has none (an empty word).
//
// A post intent holds its event as a ReviewEventWord (store/word.h): a row written by a newer
// release may hold a word this build does not name, and it is sent again exactly as written.
#ifndef GENTLE_WATCH_REVIEW_EVENT_H_
#define GENTLE_WATCH_REVIEW_EVENT_H_

#include <optional>
#include <string_view>

#include "store/forge_name.h"
#include "store/name_table.h"
#include "store/verdict_name.h"
#include "store/word.h"

namespace gentle::watch {

enum class ReviewEvent { kApprove, kApproved, kRequestChanges, kComment };

inline constexpr store::NameTable kReviewEventNames = store::MakeNameTable<ReviewEvent>({
    {ReviewEvent::kApprove, "APPROVE"},
    {ReviewEvent::kApproved, "APPROVED"},
    {ReviewEvent::kRequestChanges, "REQUEST_CHANGES"},
    {ReviewEvent::kComment, "COMMENT"},
});
inline constexpr const auto& kAllReviewEvents = kReviewEventNames.values;

constexpr std::string_view ReviewEventName(ReviewEvent value) {
  return kReviewEventNames.Name(value);
}

// nullopt for any other text (case matters).
constexpr std::optional<ReviewEvent> ParseReviewEvent(std::string_view name) {
  return kReviewEventNames.Parse(name);
}

using ReviewEventWord = store::Word<kReviewEventNames>;

// The review event of `verdict` on `kind`'s forge: an approval is APPROVE on GitHub and APPROVED
// on Gitea, a change request REQUEST_CHANGES, any other verdict COMMENT.
constexpr ReviewEvent ReviewEventOf(store::Forge kind, store::Verdict verdict) {
  if (verdict == store::Verdict::kApprove) {
    return kind == store::Forge::kGitea ? ReviewEvent::kApproved : ReviewEvent::kApprove;
  }
  if (verdict == store::Verdict::kRequestChanges) return ReviewEvent::kRequestChanges;
  return ReviewEvent::kComment;
}

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_REVIEW_EVENT_H_
