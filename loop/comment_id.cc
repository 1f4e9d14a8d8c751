#include "loop/comment_id.h"

#include "loop/pr_key.h"

namespace gentle::loop {

Status CheckCommentId(std::string_view id) {
  return CheckDecimal("a comment id", id, kMaxCommentIdDigits);
}

}  // namespace gentle::loop
