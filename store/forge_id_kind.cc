#include "store/forge_id_kind.h"

#include "store/name_table.h"

namespace gentle::store {

namespace {

constexpr NameTable kForgeIdKindNames = MakeNameTable<ForgeIdKind>({
    {ForgeIdKind::kComment, "comment"},
    {ForgeIdKind::kReview, "review"},
});

}  // namespace

std::string_view ForgeIdKindName(ForgeIdKind kind) { return kForgeIdKindNames.Name(kind); }

std::optional<ForgeIdKind> ParseForgeIdKind(std::string_view name) {
  return kForgeIdKindNames.Parse(name);
}

}  // namespace gentle::store
