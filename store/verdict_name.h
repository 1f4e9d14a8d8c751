// Verdict and ReviewerRole: the words a verdict gives and the roles that give them
// (docs/lifecycle.md, "review verdict"), one enum with one name table each, header-only so that
// every layer may use them without a link dependency. A reviewer gives APPROVE, REQUEST_CHANGES or
// NEEDS_DISCUSSION (a code verdict); a docs-reviewer APPROVE, FIXED or NO_CHANGES (a docs
// verdict). Verdict files, history trailers and posted comments hold the names; domain structs
// hold a VerdictWord or RoleWord (store/word.h: the enumerator and the text as written, parsed
// once where the text comes in), and code compares enumerators, never text.
#ifndef GENTLE_STORE_VERDICT_NAME_H_
#define GENTLE_STORE_VERDICT_NAME_H_

#include <optional>
#include <string_view>

#include "store/name_table.h"
#include "store/word.h"

namespace gentle::store {

enum class Verdict { kApprove, kRequestChanges, kNeedsDiscussion, kFixed, kNoChanges };

inline constexpr NameTable kVerdictNames = MakeNameTable<Verdict>({
    {Verdict::kApprove, "APPROVE"},
    {Verdict::kRequestChanges, "REQUEST_CHANGES"},
    {Verdict::kNeedsDiscussion, "NEEDS_DISCUSSION"},
    {Verdict::kFixed, "FIXED"},
    {Verdict::kNoChanges, "NO_CHANGES"},
});
inline constexpr const auto& kAllVerdicts = kVerdictNames.values;

constexpr std::string_view VerdictName(Verdict value) { return kVerdictNames.Name(value); }

// nullopt for any other text (case matters).
constexpr std::optional<Verdict> ParseVerdict(std::string_view name) {
  return kVerdictNames.Parse(name);
}

// A word of this table, or the text as written (store/word.h).
using VerdictWord = Word<kVerdictNames>;

// A reviewer's verdict: APPROVE, REQUEST_CHANGES or NEEDS_DISCUSSION.
constexpr bool IsCodeVerdict(std::optional<Verdict> verdict) {
  return verdict == Verdict::kApprove || verdict == Verdict::kRequestChanges ||
         verdict == Verdict::kNeedsDiscussion;
}

// A docs-reviewer's verdict: APPROVE, FIXED or NO_CHANGES.
constexpr bool IsDocsVerdict(std::optional<Verdict> verdict) {
  return verdict == Verdict::kApprove || verdict == Verdict::kFixed ||
         verdict == Verdict::kNoChanges;
}

enum class ReviewerRole { kReviewer, kDocsReviewer };

inline constexpr NameTable kReviewerRoleNames = MakeNameTable<ReviewerRole>({
    {ReviewerRole::kReviewer, "reviewer"},
    {ReviewerRole::kDocsReviewer, "docs-reviewer"},
});

constexpr std::string_view ReviewerRoleName(ReviewerRole role) {
  return kReviewerRoleNames.Name(role);
}

// nullopt for any other text (case matters).
constexpr std::optional<ReviewerRole> ParseReviewerRole(std::string_view name) {
  return kReviewerRoleNames.Parse(name);
}

// A role of this table, or the text as written (store/word.h).
using RoleWord = Word<kReviewerRoleNames>;

}  // namespace gentle::store

#endif  // GENTLE_STORE_VERDICT_NAME_H_
