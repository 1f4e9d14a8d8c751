// SelectorKind: what a candidate is taken from (a snapshot's `kind`, `--kind`; docs/lifecycle.md):
// one enum with one name table, header-only. `current-changes` (HEAD against the workspace or the
// git index), `base-diff` (the merge base of --base and HEAD against the workspace),
// `commit-range` (--base against --head, no worktree). Records hold the name.
#ifndef GENTLE_STORE_SELECTOR_KIND_H_
#define GENTLE_STORE_SELECTOR_KIND_H_

#include <optional>
#include <string_view>

#include "store/name_table.h"

namespace gentle::store {

enum class SelectorKind { kCurrentChanges, kBaseDiff, kCommitRange };

inline constexpr NameTable kSelectorKindNames = MakeNameTable<SelectorKind>({
    {SelectorKind::kCurrentChanges, "current-changes"},
    {SelectorKind::kBaseDiff, "base-diff"},
    {SelectorKind::kCommitRange, "commit-range"},
});
inline constexpr const auto& kAllSelectorKinds = kSelectorKindNames.values;

constexpr std::string_view SelectorKindName(SelectorKind value) {
  return kSelectorKindNames.Name(value);
}

// nullopt for any other text.
constexpr std::optional<SelectorKind> ParseSelectorKind(std::string_view name) {
  return kSelectorKindNames.Parse(name);
}

// Whether `name` (a snapshot's or selector's kind text) is `kind`.
constexpr bool IsSelectorKind(std::string_view name, SelectorKind kind) {
  return name == SelectorKindName(kind);
}

}  // namespace gentle::store

#endif  // GENTLE_STORE_SELECTOR_KIND_H_
