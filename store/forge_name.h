// Forge: the forges gentle-ai knows, one enum with one name table (header-only, so every layer
// may use it without a link dependency): `github`, `gitea`, `aone`, lowercase, as a PR key
// (loop/pr_key.h), a ReviewContext's `forge` member (forge/review_context.h) and the daemon's
// forge kinds (docs/watch.md) spell them. Which of them a given reader accepts is that reader's
// rule (a ReviewContext is written by the github and aone importers only).
#ifndef GENTLE_STORE_FORGE_NAME_H_
#define GENTLE_STORE_FORGE_NAME_H_

#include <optional>
#include <string_view>

#include "store/name_table.h"

namespace gentle::store {

enum class Forge { kGithub, kGitea, kAone };

inline constexpr NameTable kForgeNames = MakeNameTable<Forge>({
    {Forge::kGithub, "github"},
    {Forge::kGitea, "gitea"},
    {Forge::kAone, "aone"},
});
inline constexpr const auto& kAllForges = kForgeNames.values;

constexpr std::string_view ForgeName(Forge value) { return kForgeNames.Name(value); }

// nullopt for any other text (case matters).
constexpr std::optional<Forge> ParseForge(std::string_view name) { return kForgeNames.Parse(name); }

}  // namespace gentle::store

#endif  // GENTLE_STORE_FORGE_NAME_H_
