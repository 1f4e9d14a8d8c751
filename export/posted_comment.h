// The comment a harness posts on a forge for one review round (docs/loop.md, docs/commands.md;
// docs/context.md "Posted comments"): rendered from a recorded verdict by `review comment`, read
// back by `review parse-comment` and `review ledger` through one reader (ReadComment). Pure text,
// no I/O.
//
// Shape, byte for byte (one trailing newline after the marker):
//   ## Code Review Summary\n\n<body>\n\n### Verdict: <VERDICT>\n\n
//   <!-- gentle-ai:review lineage=<id> round=<n> revision=<rev>[ model=<m>][ session=<s>]
//   [ nonce=<n>] -->\n
// `## Docs Review Summary` for kind docs. Code verdicts: APPROVE | REQUEST_CHANGES |
// NEEDS_DISCUSSION; docs verdicts: APPROVE | FIXED | NO_CHANGES. The body is the recorded body,
// verbatim. The marker is attribution only, never proof of anything.
//
// Marker values (model, session): 1 to 64 bytes of [A-Za-z0-9_:+-] and `.` only between two
// digits (so `gpt-4.1` passes, while a dotted host name, a file name, a path, `user@host`,
// whitespace, newlines and `-->` cannot appear); a session is printed as its first 8 bytes, which
// must pass the same rule. A nonce (`review post`: the one post it was sent by, so that post finds
// its own comment again after a crash) is exactly 32 lowercase hex digits. Anything else is
// `usage`.
//
// The body rule (CheckPostable, the one rule `review verdict` applies before it writes anything
// and `review comment` applies before it renders): at most kMaxBodyBytes, valid UTF-8, no NUL and
// no carriage return (forges hand bodies back with CRLF line ends, which the reader turns into LF:
// a CR of the body itself could not be read back), and nothing that would make the comment
// ambiguous to the review pipeline's regexes (docs/context.md): no `###<spaces>Verdict:`
// (REVIEW_VERDICT_RE takes the first such line), no `Code Review Summary` or `gentle-ai:review` in
// any case, and, in a code comment, no `Docs Review` (DOCS_REVIEW_RE is a substring match).
// Anything else is `usage` naming the reason. So every body CheckPostable accepts renders, and
// reads back to the same body and verdict, with LF or CRLF line ends
// (tests/comment_property_test.cc).
//
// ReadComment, the one reader: CRLF line ends are read as LF first (a forge's copy reads as the
// posted one), then the text is read as
//   - strict: exactly the shape above (the final newline may be missing, as forges trim it),
//     with the verdict word of the heading's kind, a lineage id, a decimal round >= 1 without
//     leading zeros, a `sha256:<64 hex>` revision, checked marker values and a body the rule
//     accepts; at most kMaxCommentBytes after the line ends are read, valid UTF-8, no NUL (the
//     CLI reads at most kMaxCommentInputBytes, twice that, of a file: a CRLF copy of the largest
//     comment);
//   - the marker: the last line (trailing newlines ignored), when it starts `<!--
//   gentle-ai:review`;
//   - the loose verdict: the word of the last `### Verdict: <VERDICT>` line, when it is a verdict.
// ParseComment is the strict reading or `usage` naming what is wrong.
#ifndef GENTLE_EXPORT_POSTED_COMMENT_H_
#define GENTLE_EXPORT_POSTED_COMMENT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "store/status.h"
#include "store/verdict_name.h"

namespace gentle::exporter {

inline constexpr std::string_view kCommentSchema = "gentle-ai.review-comment/v1";
inline constexpr size_t kMaxBodyBytes = 1u << 20;
inline constexpr size_t kMaxCommentBytes = kMaxBodyBytes + 4096;  // a 1 MiB body and the frame
// The most a comment's text may hold before its CRLF line ends are read as LF.
inline constexpr size_t kMaxCommentInputBytes = 2 * kMaxCommentBytes;
inline constexpr size_t kMaxMarkerValueBytes = 64;
inline constexpr size_t kSessionMarkerBytes = 8;
inline constexpr size_t kNonceHexBytes = 32;

enum class CommentKind { kCode, kDocs };
std::string_view CommentKindName(CommentKind kind);  // "code" | "docs"

struct PostedComment {
  CommentKind kind = CommentKind::kCode;
  store::VerdictWord verdict;  // as given to RenderComment; a verdict of `kind` when read
  std::string body;
  std::string lineage;
  int64_t round = 0;
  std::string revision;
  std::optional<std::string> model;
  std::optional<std::string> session;  // as in the marker: at most 8 bytes
  std::optional<std::string> nonce;    // kNonceHexBytes lowercase hex
};

// The verdict words (docs/lifecycle.md, "review verdict"): store/verdict_name.h, the one
// definition `review verdict` and `review comment` share.
using store::IsCodeVerdict;
using store::IsDocsVerdict;

// The kind a role's verdict renders as: reviewer + code verdict -> code, docs-reviewer + docs
// verdict -> docs; anything else `forbidden`.
Result<CommentKind> CommentKindFor(const store::RoleWord& role, const store::VerdictWord& verdict);

// The body rule above for a comment of `kind`: ok, or `usage` naming the reason.
Status CheckBody(CommentKind kind, std::string_view body);

// Whether `role`'s `verdict` with `body` can be posted and read back: CommentKindFor, then
// CheckBody. `review verdict` runs it before any write, `review comment` before it renders.
Status CheckPostable(const store::RoleWord& role, const store::VerdictWord& verdict,
                     std::string_view body);

// `text` with every CRLF pair read as LF (a lone CR stays).
std::string WithLfLineEnds(std::string_view text);

// Ok, or `usage` naming `flag` and the rule the value breaks.
Status CheckMarkerValue(std::string_view flag, std::string_view value);
// Ok for exactly kNonceHexBytes lowercase hex digits, else `usage` naming `flag`.
Status CheckNonce(std::string_view flag, std::string_view value);

// The comment's bytes; `usage` for a body or marker value the rules above refuse. A session is
// cut to its first 8 bytes here.
Result<std::string> RenderComment(const PostedComment& comment);

// What ReadComment finds in a comment's text.
struct CommentReading {
  // Ok when the text is exactly a rendered comment (`comment` then holds all of it); else the
  // `usage` naming the first thing that is wrong.
  Status strict;
  // The last line starts `<!-- gentle-ai:review`. Its fields are in `comment` when `marker` is ok;
  // else `marker` is the `usage` naming what is wrong with the line.
  bool has_marker = false;
  Status marker;
  PostedComment comment;
  // The verdict: the strict one, else the word of the last `### Verdict: <VERDICT>` line when it
  // is a code or docs verdict, else none.
  std::optional<store::Verdict> verdict;
};

CommentReading ReadComment(std::string_view text);

Result<PostedComment> ParseComment(std::string_view text);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_POSTED_COMMENT_H_
