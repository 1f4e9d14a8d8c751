// ForgePrState: where a pull request is on its forge (docs/watch.md "What it reads"), one enum
// with one name table (header-only): `open`, `closed` (not merged) or `merged`. The forge's answer
// and the watch state's stored PR (watch/pr_meta.h) carry it as `state` ("open" | "closed", the
// two forge names) and `merged` (bool) or `merged_at` (non-null: merged); ParsePrMeta reads them
// into the enum and EncodePrMeta writes them back. Code compares the enum, never the text.
#ifndef GENTLE_WATCH_FORGE_PR_STATE_H_
#define GENTLE_WATCH_FORGE_PR_STATE_H_

#include <optional>
#include <string_view>

namespace gentle::watch {

enum class ForgePrState { kOpen, kClosed, kMerged };

inline constexpr ForgePrState kAllForgePrStates[] = {ForgePrState::kOpen, ForgePrState::kClosed,
                                                     ForgePrState::kMerged};

constexpr std::string_view ForgePrStateName(ForgePrState state) {
  switch (state) {
    case ForgePrState::kOpen:
      return "open";
    case ForgePrState::kClosed:
      return "closed";
    case ForgePrState::kMerged:
      return "merged";
  }
  return "";
}

// nullopt for any other text (case matters).
constexpr std::optional<ForgePrState> ParseForgePrState(std::string_view name) {
  for (ForgePrState state : kAllForgePrStates) {
    if (ForgePrStateName(state) == name) return state;
  }
  return std::nullopt;
}

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_FORGE_PR_STATE_H_
