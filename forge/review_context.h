// The ReviewContext (schema gentle-ai.review-context/v1, docs/context.md): one forge review's
// metadata, its comments split into the inline and thread channels, its review-level verdicts and
// the ledger carriers (where earlier rounds' markers live), normalized from GitHub or Aone output
// by forge/github_import and forge/aone_import (the ReviewContext of docs/context.md, with ids as
// decimal strings).
//
// Bytes: RenderReviewContext is the one canonical form: nlohmann's dump with two-space indentation,
// members in the order below, optional members absent (never null, never zero for absent stats),
// raw UTF-8 (only `"`, `\` and control characters escaped), one trailing newline. Comments,
// verdicts and carriers are sorted by time (createdAt / submittedAt as an instant; an empty time
// first) then by id as a number. ParseReviewContext accepts exactly that form: the text must parse,
// carry the schema, have every member with its type, and re-render to the same bytes (anything
// else, a hand edit or a reformat included, is `usage`).
#ifndef GENTLE_FORGE_REVIEW_CONTEXT_H_
#define GENTLE_FORGE_REVIEW_CONTEXT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "forge/comment_channel.h"
#include "forge/forge_review_state.h"
#include "store/forge_name.h"
#include "store/status.h"

namespace gentle::forge {

inline constexpr std::string_view kReviewContextSchema = "gentle-ai.review-context/v1";
// Every input file (forge page, context) is refused above this size, before it is read whole.
inline constexpr size_t kMaxForgeInputBytes = size_t{64} << 20;

struct ContextComment {
  std::string id;                                    // decimal, >= 1
  CommentChannel channel = CommentChannel::kThread;  // inline: path present
  std::string author;  // login / account; "" when the forge names none
  std::string body;
  std::string created_at;                // RFC 3339 as the forge printed it; "" when it gives none
  std::optional<std::string> path;       // inline only
  std::optional<int64_t> line;           // inline only, when the forge gives one
  std::optional<std::string> parent_id;  // GitHub in_reply_to_id / Aone parentNoteId
  bool operator==(const ContextComment&) const = default;
};

// A review-level verdict, and the shape of a ledger carrier.
struct ContextVerdict {
  std::string id;
  std::string author;
  std::string body;
  ForgeReviewState state;    // APPROVED | CHANGES_REQUESTED | COMMENTED | DISMISSED | ...
  std::string submitted_at;  // "" when the forge gives none
  std::optional<std::string> commit_id;  // GitHub: the head the review was made against
  std::optional<std::string> parent_id;  // carriers only: an Aone thread reply's parent
  bool operator==(const ContextVerdict&) const = default;
};

struct ReviewContext {
  store::Forge forge = store::Forge::kGithub;
  std::string title;
  std::string body;
  std::string author_login;
  std::string state;
  std::string base_ref_name;
  std::string head_ref_name;
  std::string head_ref_oid;
  std::optional<int64_t> additions, deletions, changed_files;
  std::vector<ContextComment> comments;
  std::vector<ContextVerdict> verdicts;
  std::vector<ContextVerdict> ledger_carriers;
};

// Time (an empty one first) then id as a number: the one order of every list. The times must
// have been checked (CheckTime) or be empty.
bool CommentBefore(const ContextComment& a, const ContextComment& b);
bool VerdictBefore(const ContextVerdict& a, const ContextVerdict& b);
// Decimal id order (no leading zeros): shorter first, then bytewise.
bool IdLess(std::string_view a, std::string_view b);
// Whether `text` is "" or an RFC 3339 timestamp (forge/timestamp.h).
bool IsTimeOrEmpty(std::string_view text);

// A thread comment shaped as a ledger carrier: id, author, body, state COMMENTED, submittedAt its
// createdAt, parentId kept, no commitId (Aone's carriers; GitHub's issue comments in the ledger).
ContextVerdict CarrierOf(const ContextComment& comment);

// Sorts the three lists into the canonical order.
void SortReviewContext(ReviewContext* context);

std::string RenderReviewContext(const ReviewContext& context);

// `usage` naming `file` and the JSON path of what is wrong.
Result<ReviewContext> ParseReviewContext(std::string_view text, const std::string& file);

}  // namespace gentle::forge

#endif  // GENTLE_FORGE_REVIEW_CONTEXT_H_
