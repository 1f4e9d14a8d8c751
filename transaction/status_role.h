// StatusRole: whose actions `review status --role` names (docs/loop.md, "Two roles"). An author
// acts on the lineages of its own worktree (start, revise, burn); a reviewer on every lineage of
// the clone that awaits a review or the post of one (export, verdict, post), whichever worktree
// captured it. Without --role, status is the author's: a harness that authors and reviews runs an
// author loop and a reviewer loop, each asking with its role.
#ifndef GENTLE_TRANSACTION_STATUS_ROLE_H_
#define GENTLE_TRANSACTION_STATUS_ROLE_H_

#include <optional>
#include <string_view>

#include "store/name_table.h"

namespace gentle::transaction {

enum class StatusRole { kAuthor, kReviewer };

inline constexpr store::NameTable kStatusRoleNames = store::MakeNameTable<StatusRole>({
    {StatusRole::kAuthor, "author"},
    {StatusRole::kReviewer, "reviewer"},
});
inline constexpr const auto& kAllStatusRoles = kStatusRoleNames.values;

constexpr std::string_view StatusRoleName(StatusRole role) { return kStatusRoleNames.Name(role); }
constexpr std::optional<StatusRole> ParseStatusRole(std::string_view name) {
  return kStatusRoleNames.Parse(name);
}

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_STATUS_ROLE_H_
