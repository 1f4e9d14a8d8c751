// The comment a harness posts on a forge for one review round (DESIGN.md section 12, reference
// 001): rendered from a recorded verdict by `review comment`, read back strictly by
// `review parse-comment`. Pure text, no I/O.
//
// Shape, byte for byte (one trailing newline after the marker):
//   ## Code Review Summary\n\n<body>\n\n### Verdict: <VERDICT>\n\n
//   <!-- gentle-ai:review lineage=<id> round=<n> revision=<rev>[ model=<m>][ session=<s>] -->\n
// `## Docs Review Summary` for kind docs. Code verdicts: APPROVE | REQUEST_CHANGES |
// NEEDS_DISCUSSION; docs verdicts: APPROVE | FIXED | NO_CHANGES. The body is the recorded body,
// verbatim. The marker is attribution only, never proof of anything.
//
// Marker values (model, session): 1 to 64 bytes of [A-Za-z0-9_:+-] and `.` only between two
// digits (so `gpt-4.1` passes, while a dotted host name, a file name, a path, `user@host`,
// whitespace, newlines and `-->` cannot appear); a session is printed as its first 8 bytes, which
// must pass the same rule. Anything else is `usage`.
//
// A body that would make the comment ambiguous to the pipeline regexes of reference 001 is refused
// (`usage`): one holding `###<spaces>Verdict:` (REVIEW_VERDICT_RE takes the first such line), `Code
// Review Summary` or `gentle-ai:review` in any case, or, in a code comment, `Docs Review`
// (DOCS_REVIEW_RE is a substring match).
//
// ParseComment accepts exactly that shape (the final newline may be missing, as forges trim it),
// with the verdict word of the heading's kind, a lineage id, a decimal round >= 1 without leading
// zeros, a `sha256:<64 hex>` revision and checked marker values; at most kMaxCommentBytes, valid
// UTF-8, no NUL. Anything else is `usage` naming what is wrong.
#ifndef GENTLE_EXPORT_POSTED_COMMENT_H_
#define GENTLE_EXPORT_POSTED_COMMENT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "store/status.h"

namespace gentle::exporter {

inline constexpr std::string_view kCommentSchema = "gentle-ai.review-comment/v1";
inline constexpr size_t kMaxCommentBytes = (1u << 20) + 4096;  // a 1 MiB body and the frame
inline constexpr size_t kMaxMarkerValueBytes = 64;
inline constexpr size_t kSessionMarkerBytes = 8;

enum class CommentKind { kCode, kDocs };
std::string_view CommentKindName(CommentKind kind);  // "code" | "docs"

struct PostedComment {
  CommentKind kind = CommentKind::kCode;
  std::string verdict;
  std::string body;
  std::string lineage;
  int64_t round = 0;
  std::string revision;
  std::optional<std::string> model;
  std::optional<std::string> session;  // as in the marker: at most 8 bytes
};

// The kind a role's verdict renders as: reviewer + code verdict -> code, docs-reviewer + docs
// verdict -> docs; anything else `forbidden`.
Result<CommentKind> CommentKindFor(const std::string& role, const std::string& verdict);

// Ok, or `usage` naming `flag` and the rule the value breaks.
Status CheckMarkerValue(std::string_view flag, std::string_view value);

// The comment's bytes; `usage` for a body or marker value the rules above refuse. A session is
// cut to its first 8 bytes here.
Result<std::string> RenderComment(const PostedComment& comment);

Result<PostedComment> ParseComment(std::string_view text);

// The marker line alone (no newline): sets lineage, round, revision, model and session of `out`
// under the rules above, or `usage` naming what is wrong. forge/ledger_recovery reads the markers
// of comments that are not wholly this shape with it.
Status ParseMarkerLine(std::string_view line, PostedComment* out);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_POSTED_COMMENT_H_
