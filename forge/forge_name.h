// The forges a ReviewContext comes from (docs/context.md): one enum, one name table. The name is
// what `review context import --forge` takes and what the context's `forge` member holds.
#ifndef GENTLE_FORGE_FORGE_NAME_H_
#define GENTLE_FORGE_FORGE_NAME_H_

#include <optional>
#include <string>
#include <string_view>

namespace gentle::forge {

enum class Forge { kGithub, kAone, kGitea };

std::string_view ForgeName(Forge forge);  // "github" | "aone" | "gitea"
// The forge named exactly `name`; nothing for any other text.
std::optional<Forge> ParseForge(std::string_view name);
// The names in the table's order, for messages and help: "github, aone or gitea".
std::string ForgeNameList();

}  // namespace gentle::forge

#endif  // GENTLE_FORGE_FORGE_NAME_H_
