// Verdict and ReviewerRole: the words a verdict gives and the roles that give them
// (docs/lifecycle.md "verdict"), one enum with one name table each, header-only so that every
// layer may use them without a link dependency. A reviewer gives APPROVE, REQUEST_CHANGES or
// NEEDS_DISCUSSION (a code verdict); a docs-reviewer APPROVE, FIXED or NO_CHANGES (a docs
// verdict). Records, verdict files, history trailers and posted comments hold the names; code
// compares them through IsVerdict/IsRole, never against a literal.
#ifndef GENTLE_STORE_VERDICT_NAME_H_
#define GENTLE_STORE_VERDICT_NAME_H_

#include <optional>
#include <string_view>

namespace gentle::store {

enum class Verdict { kApprove, kRequestChanges, kNeedsDiscussion, kFixed, kNoChanges };

inline constexpr Verdict kAllVerdicts[] = {Verdict::kApprove, Verdict::kRequestChanges,
                                           Verdict::kNeedsDiscussion, Verdict::kFixed,
                                           Verdict::kNoChanges};

constexpr std::string_view VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kApprove:
      return "APPROVE";
    case Verdict::kRequestChanges:
      return "REQUEST_CHANGES";
    case Verdict::kNeedsDiscussion:
      return "NEEDS_DISCUSSION";
    case Verdict::kFixed:
      return "FIXED";
    case Verdict::kNoChanges:
      return "NO_CHANGES";
  }
  return "";
}

// nullopt for any other text (case matters).
constexpr std::optional<Verdict> ParseVerdict(std::string_view name) {
  for (Verdict verdict : kAllVerdicts) {
    if (VerdictName(verdict) == name) return verdict;
  }
  return std::nullopt;
}

// Whether `name` (a verdict's text) is `verdict`.
constexpr bool IsVerdict(std::string_view name, Verdict verdict) {
  return name == VerdictName(verdict);
}

// A reviewer's verdict: APPROVE, REQUEST_CHANGES or NEEDS_DISCUSSION.
constexpr bool IsCodeVerdict(std::string_view name) {
  const std::optional<Verdict> verdict = ParseVerdict(name);
  return verdict == Verdict::kApprove || verdict == Verdict::kRequestChanges ||
         verdict == Verdict::kNeedsDiscussion;
}

// A docs-reviewer's verdict: APPROVE, FIXED or NO_CHANGES.
constexpr bool IsDocsVerdict(std::string_view name) {
  const std::optional<Verdict> verdict = ParseVerdict(name);
  return verdict == Verdict::kApprove || verdict == Verdict::kFixed ||
         verdict == Verdict::kNoChanges;
}

enum class ReviewerRole { kReviewer, kDocsReviewer };

constexpr std::string_view ReviewerRoleName(ReviewerRole role) {
  return role == ReviewerRole::kDocsReviewer ? "docs-reviewer" : "reviewer";
}

// nullopt for any other text (case matters).
constexpr std::optional<ReviewerRole> ParseReviewerRole(std::string_view name) {
  if (name == ReviewerRoleName(ReviewerRole::kReviewer)) return ReviewerRole::kReviewer;
  if (name == ReviewerRoleName(ReviewerRole::kDocsReviewer)) return ReviewerRole::kDocsReviewer;
  return std::nullopt;
}

// Whether `name` (a role's text) is `role`.
constexpr bool IsRole(std::string_view name, ReviewerRole role) {
  return name == ReviewerRoleName(role);
}

}  // namespace gentle::store

#endif  // GENTLE_STORE_VERDICT_NAME_H_
