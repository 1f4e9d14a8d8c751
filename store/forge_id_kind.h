// The id space of a forge id (docs/loop.md, "PR keys, comment and review ids", docs/context.md
// "review ledger"): GitHub numbers issue and review comments in one space and review bodies (a
// review's summary, e.g. a CHANGES_REQUESTED review) in another, so an id is only an id together
// with its kind. Aone and Gitea ids used here are comments. One vocabulary, shared by the seen
// ledger (loop/) and ledger recovery (forge/). Pure.
#ifndef GENTLE_STORE_FORGE_ID_KIND_H_
#define GENTLE_STORE_FORGE_ID_KIND_H_

#include <optional>
#include <string_view>

namespace gentle::store {

enum class ForgeIdKind { kComment, kReview };

std::string_view ForgeIdKindName(ForgeIdKind kind);  // "comment" | "review"
std::optional<ForgeIdKind> ParseForgeIdKind(std::string_view name);

}  // namespace gentle::store

#endif  // GENTLE_STORE_FORGE_ID_KIND_H_
