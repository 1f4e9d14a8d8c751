#include "loop/comment_id.h"

#include "loop/pr_key.h"

namespace gentle::loop {

Status CheckCommentId(std::string_view id) {
  return CheckDecimal("a comment id", id, kMaxCommentIdDigits);
}

Result<SeenId> ParseSeenId(std::string_view text) {
  SeenId out;
  const size_t colon = text.find(':');
  if (colon != std::string_view::npos) {
    auto kind = store::ParseForgeIdKind(text.substr(0, colon));
    if (!kind) {
      return Status(Code::kUsage,
                    "an id is N, comment:N or review:N (the part before ':' is no id kind)");
    }
    out.kind = *kind;
    text.remove_prefix(colon + 1);
  }
  GENTLE_RETURN_IF_ERROR(
      CheckDecimal(out.kind == store::ForgeIdKind::kReview ? "a review id" : "a comment id", text,
                   kMaxCommentIdDigits));
  out.id = std::string(text);
  return out;
}

std::string FormatSeenId(const SeenId& id) {
  return id.kind == store::ForgeIdKind::kReview ? "review:" + id.id : id.id;
}

}  // namespace gentle::loop
