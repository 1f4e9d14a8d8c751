// SelectorKind: what a candidate is taken from (a snapshot's `kind`, `--kind`; docs/lifecycle.md):
// one enum with one name table, header-only. `current-changes` (HEAD against the workspace or the
// git index), `base-diff` (the merge base of --base and HEAD against the workspace),
// `commit-range` (--base against --head, no worktree). Records hold the name.
#ifndef GENTLE_STORE_SELECTOR_KIND_H_
#define GENTLE_STORE_SELECTOR_KIND_H_

#include <optional>
#include <string_view>

namespace gentle::store {

enum class SelectorKind { kCurrentChanges, kBaseDiff, kCommitRange };

inline constexpr SelectorKind kAllSelectorKinds[] = {
    SelectorKind::kCurrentChanges, SelectorKind::kBaseDiff, SelectorKind::kCommitRange};

constexpr std::string_view SelectorKindName(SelectorKind kind) {
  switch (kind) {
    case SelectorKind::kCurrentChanges:
      return "current-changes";
    case SelectorKind::kBaseDiff:
      return "base-diff";
    case SelectorKind::kCommitRange:
      return "commit-range";
  }
  return "";
}

// nullopt for any other text.
constexpr std::optional<SelectorKind> ParseSelectorKind(std::string_view name) {
  for (SelectorKind kind : kAllSelectorKinds) {
    if (SelectorKindName(kind) == name) return kind;
  }
  return std::nullopt;
}

// Whether `name` (a snapshot's or selector's kind text) is `kind`.
constexpr bool IsSelectorKind(std::string_view name, SelectorKind kind) {
  return name == SelectorKindName(kind);
}

}  // namespace gentle::store

#endif  // GENTLE_STORE_SELECTOR_KIND_H_
