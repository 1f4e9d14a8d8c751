#include "store/forge_id_kind.h"

namespace gentle::store {

std::string_view ForgeIdKindName(ForgeIdKind kind) {
  return kind == ForgeIdKind::kReview ? "review" : "comment";
}

std::optional<ForgeIdKind> ParseForgeIdKind(std::string_view name) {
  if (name == "comment") return ForgeIdKind::kComment;
  if (name == "review") return ForgeIdKind::kReview;
  return std::nullopt;
}

}  // namespace gentle::store
