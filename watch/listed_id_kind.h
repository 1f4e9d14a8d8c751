// ListedIdKind: what an id the watcher lists on a PR names (docs/watch.md "Reasons"), one enum
// with one name table (header-only): `comment` (an issue comment), `review_comment` (a comment on
// the diff) or `review` (a review's body). The watcher's known ids (watch/watch_db.h) hold them
// as "<kind>:<id>", so the names are a stored format; code compares the enum, never the text.
#ifndef GENTLE_WATCH_LISTED_ID_KIND_H_
#define GENTLE_WATCH_LISTED_ID_KIND_H_

#include <optional>
#include <string_view>

#include "store/forge_id_kind.h"
#include "store/name_table.h"

namespace gentle::watch {

enum class ListedIdKind { kComment, kReviewComment, kReview };

inline constexpr store::NameTable kListedIdKindNames = store::MakeNameTable<ListedIdKind>({
    {ListedIdKind::kComment, "comment"},
    {ListedIdKind::kReviewComment, "review_comment"},
    {ListedIdKind::kReview, "review"},
});
inline constexpr const auto& kAllListedIdKinds = kListedIdKindNames.values;

constexpr std::string_view ListedIdKindName(ListedIdKind value) {
  return kListedIdKindNames.Name(value);
}

// nullopt for any other text (case matters).
constexpr std::optional<ListedIdKind> ParseListedIdKind(std::string_view name) {
  return kListedIdKindNames.Parse(name);
}

// The forge id space the id is in (store/forge_id_kind.h): a review body's is `review`; an issue
// comment and a review comment share the `comment` space.
constexpr store::ForgeIdKind IdSpaceOf(ListedIdKind kind) {
  return kind == ListedIdKind::kReview ? store::ForgeIdKind::kReview : store::ForgeIdKind::kComment;
}

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_LISTED_ID_KIND_H_
