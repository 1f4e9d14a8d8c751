// PostAs: how `review post --as` posts a round's comment on a PR (docs/loop.md "review post"),
// one enum with one name table (header-only): `review`, a PR review whose event follows the
// verdict, or `comment`, an issue comment. The flag, a post intent's `post_as` column and the
// answer's `as` member hold the names; code compares the enum, never the text.
#ifndef GENTLE_WATCH_POST_AS_H_
#define GENTLE_WATCH_POST_AS_H_

#include <optional>
#include <string_view>

#include "store/name_table.h"

namespace gentle::watch {

enum class PostAs { kReview, kComment };

inline constexpr store::NameTable kPostAsNames = store::MakeNameTable<PostAs>({
    {PostAs::kReview, "review"},
    {PostAs::kComment, "comment"},
});
inline constexpr const auto& kAllPostAs = kPostAsNames.values;

constexpr std::string_view PostAsName(PostAs value) { return kPostAsNames.Name(value); }

// nullopt for any other text (case matters).
constexpr std::optional<PostAs> ParsePostAs(std::string_view name) {
  return kPostAsNames.Parse(name);
}

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_POST_AS_H_
