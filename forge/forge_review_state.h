// ForgeReviewState: a review's state as a forge reports it, in GitHub's words (forge/
// review_context.h ContextVerdict): APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED, PENDING.
// One name table; a forge may send a state this build does not know, which is kOther and keeps
// its text, so a review context prints and reads back exactly what came in. Code asks kind(),
// never compares the text; text() is for writing only.
#ifndef GENTLE_FORGE_FORGE_REVIEW_STATE_H_
#define GENTLE_FORGE_FORGE_REVIEW_STATE_H_

#include <string>
#include <utility>

#include "store/name_table.h"
#include "store/word.h"

namespace gentle::forge {

enum class ForgeReviewKind {
  kApproved,
  kChangesRequested,
  kCommented,
  kDismissed,
  kPending,  // a draft review: GitHub's PENDING (forge/github_import.h skips it)
  kOther,    // any other text: no name of its own, the state keeps the text
};

// Every kind but kOther.
inline constexpr store::NameTable kForgeReviewKindNames = store::MakeNameTable<ForgeReviewKind>({
    {ForgeReviewKind::kApproved, "APPROVED"},
    {ForgeReviewKind::kChangesRequested, "CHANGES_REQUESTED"},
    {ForgeReviewKind::kCommented, "COMMENTED"},
    {ForgeReviewKind::kDismissed, "DISMISSED"},
    {ForgeReviewKind::kPending, "PENDING"},
});

class ForgeReviewState {
 public:
  ForgeReviewState() = default;           // empty text, kOther
  ForgeReviewState(ForgeReviewKind kind)  // NOLINT: implicit, a named kind is its name
      : word_(kind) {}
  // The state as the forge (or a review context file) writes it.
  static ForgeReviewState FromText(std::string text) {
    ForgeReviewState out;
    out.word_ = Word::FromText(std::move(text));
    return out;
  }

  ForgeReviewKind kind() const { return word_.value().value_or(ForgeReviewKind::kOther); }
  const std::string& text() const { return word_.text(); }
  bool operator==(const ForgeReviewState& other) const = default;

 private:
  using Word = store::Word<kForgeReviewKindNames>;
  Word word_;
};

}  // namespace gentle::forge

#endif  // GENTLE_FORGE_FORGE_REVIEW_STATE_H_
