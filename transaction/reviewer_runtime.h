// ReviewerRuntime: the reviewer runtimes whose budget `start --runtime NAME` names, and that budget
// (docs/lifecycle.md, "The reviewer's budget"): what one part of the reviewer's view may hold for
// a reviewer running in that runtime, as gentle-ai sizes it (its PR #4725): claude, claude-code
// and pi 512 KiB; codex and opencode 1 MiB. Without a runtime or --max-bytes the round's budget is
// the default, store/round_budget.h kDefaultRoundBudgetBytes (4 MiB). One name table; header only.
#ifndef GENTLE_TRANSACTION_REVIEWER_RUNTIME_H_
#define GENTLE_TRANSACTION_REVIEWER_RUNTIME_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "store/name_table.h"

namespace gentle::transaction {

enum class ReviewerRuntime { kClaude, kClaudeCode, kPi, kCodex, kOpencode };

inline constexpr store::NameTable kReviewerRuntimeNames = store::MakeNameTable<ReviewerRuntime>({
    {ReviewerRuntime::kClaude, "claude"},
    {ReviewerRuntime::kClaudeCode, "claude-code"},
    {ReviewerRuntime::kPi, "pi"},
    {ReviewerRuntime::kCodex, "codex"},
    {ReviewerRuntime::kOpencode, "opencode"},
});
inline constexpr const auto& kAllReviewerRuntimes = kReviewerRuntimeNames.values;

constexpr std::string_view ReviewerRuntimeName(ReviewerRuntime runtime) {
  return kReviewerRuntimeNames.Name(runtime);
}
constexpr std::optional<ReviewerRuntime> ParseReviewerRuntime(std::string_view name) {
  return kReviewerRuntimeNames.Parse(name);
}

// The runtime's budget in bytes.
constexpr uint64_t ReviewerRuntimeBudget(ReviewerRuntime runtime) {
  switch (runtime) {
    case ReviewerRuntime::kClaude:
    case ReviewerRuntime::kClaudeCode:
    case ReviewerRuntime::kPi:
      return uint64_t{512} << 10;
    case ReviewerRuntime::kCodex:
    case ReviewerRuntime::kOpencode:
      return uint64_t{1} << 20;
  }
  return 0;
}

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_REVIEWER_RUNTIME_H_
