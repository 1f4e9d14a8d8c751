// CommentChannel: where a review context's comment was made (docs/context.md), one enum with one
// name table (header-only): `inline`, on a line of the diff (the comment has a path), or `thread`,
// in the review's conversation. The context's `channel` member holds the names; ParseReviewContext
// refuses any other text, so code compares the enum, never the text.
#ifndef GENTLE_FORGE_COMMENT_CHANNEL_H_
#define GENTLE_FORGE_COMMENT_CHANNEL_H_

#include <optional>
#include <string_view>

#include "store/name_table.h"

namespace gentle::forge {

enum class CommentChannel { kInline, kThread };

inline constexpr store::NameTable kCommentChannelNames = store::MakeNameTable<CommentChannel>({
    {CommentChannel::kInline, "inline"},
    {CommentChannel::kThread, "thread"},
});
inline constexpr const auto& kAllCommentChannels = kCommentChannelNames.values;

constexpr std::string_view CommentChannelName(CommentChannel value) {
  return kCommentChannelNames.Name(value);
}

// nullopt for any other text (case matters).
constexpr std::optional<CommentChannel> ParseCommentChannel(std::string_view name) {
  return kCommentChannelNames.Parse(name);
}

}  // namespace gentle::forge

#endif  // GENTLE_FORGE_COMMENT_CHANNEL_H_
