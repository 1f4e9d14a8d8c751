// Comment ids of the seen ledger (docs/loop.md): a forge comment id as decimal text, 1 to 20
// digits without leading zeros (GitHub's and Gitea's REST ids and Aone's note ids are positive
// integers; 20 digits hold any unsigned 64-bit value). Kept as text, never converted, so no id is
// ever rounded or truncated. Anything else is `usage`. Pure, no I/O.
#ifndef GENTLE_LOOP_COMMENT_ID_H_
#define GENTLE_LOOP_COMMENT_ID_H_

#include <string_view>

#include "store/status.h"

namespace gentle::loop {

inline constexpr size_t kMaxCommentIdDigits = 20;

Status CheckCommentId(std::string_view id);

}  // namespace gentle::loop

#endif  // GENTLE_LOOP_COMMENT_ID_H_
