// Ids of the seen ledger (docs/loop.md, "PR keys, comment and review ids"): a forge id as decimal
// text, 1 to 20 digits without leading zeros (GitHub's and Gitea's REST ids and Aone's note ids are
// positive integers; 20 digits hold any unsigned 64-bit value), kept as text, never converted, so
// no id is ever rounded or truncated; together with its kind (store/forge_id_kind.h), because
// GitHub's review bodies have their own id space.
//
// A seen id's text: `N` or `comment:N` is comment N, `review:N` is review N. FormatSeenId writes
// the one canonical form: `N` for a comment (so the ids of a ledger of comments only read as
// before), `review:N` for a review. Anything else is `usage`. Pure, no I/O.
#ifndef GENTLE_LOOP_COMMENT_ID_H_
#define GENTLE_LOOP_COMMENT_ID_H_

#include <string>
#include <string_view>

#include "store/forge_id_kind.h"
#include "store/status.h"

namespace gentle::loop {

inline constexpr size_t kMaxCommentIdDigits = 20;

Status CheckCommentId(std::string_view id);

struct SeenId {
  store::ForgeIdKind kind = store::ForgeIdKind::kComment;
  std::string id;  // checked decimal text
  bool operator==(const SeenId&) const = default;
  auto operator<=>(const SeenId&) const = default;
};

Result<SeenId> ParseSeenId(std::string_view text);
std::string FormatSeenId(const SeenId& id);

}  // namespace gentle::loop

#endif  // GENTLE_LOOP_COMMENT_ID_H_
