// ForgePrState: where a pull request is on its forge (docs/watch.md "What it reads"), one enum
// with one name table (header-only): `open`, `closed` (not merged) or `merged`. The forge's answer
// and the watch state's stored PR (watch/pr_meta.h) carry it as `state` ("open" | "closed", the
// two forge names) and `merged` (bool) or `merged_at` (non-null: merged); ParsePrMeta reads them
// into the enum and EncodePrMeta writes them back. Code compares the enum, never the text.
#ifndef GENTLE_WATCH_FORGE_PR_STATE_H_
#define GENTLE_WATCH_FORGE_PR_STATE_H_

#include <optional>
#include <string_view>

#include "store/name_table.h"

namespace gentle::watch {

enum class ForgePrState { kOpen, kClosed, kMerged };

inline constexpr store::NameTable kForgePrStateNames = store::MakeNameTable<ForgePrState>({
    {ForgePrState::kOpen, "open"},
    {ForgePrState::kClosed, "closed"},
    {ForgePrState::kMerged, "merged"},
});
inline constexpr const auto& kAllForgePrStates = kForgePrStateNames.values;

constexpr std::string_view ForgePrStateName(ForgePrState value) {
  return kForgePrStateNames.Name(value);
}

// nullopt for any other text (case matters).
constexpr std::optional<ForgePrState> ParseForgePrState(std::string_view name) {
  return kForgePrStateNames.Parse(name);
}

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_FORGE_PR_STATE_H_
