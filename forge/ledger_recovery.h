// `review ledger`: the previous rounds' markers recovered from a ReviewContext's ledger carriers
// (docs/loop.md, ledger recovery in docs/context.md), as JSON gentle-ai.review-ledger/v1
// (docs/context.md, "review ledger").
//
// - The carriers: the context's ledgerCarriers (GitHub: review bodies, id kind `review`; Aone:
//   thread comments, id kind `comment`) and, on GitHub, its thread comments (issue comments, id
//   kind `comment`: a summary posted with `gh pr comment`), read in the context's order (time,
//   then id, then reviews before comments).
// - Every carrier's body is read with export/posted_comment's ReadComment, the reader `review
//   parse-comment` uses (CRLF read as LF). A carrier holds a marker when the last line of its body
//   starts with `<!-- gentle-ai:review`; one whose marker does not parse is listed as unreadable,
//   never used.
// - Its verdict: the verdict of the whole body when it is exactly the comment `review comment`
//   renders ("strict"), else the word of its last `### Verdict: <VERDICT>` line when that is a
//   code or docs verdict, else none.
// - Own when the carrier's author is exactly `me` (not empty); everything else is foreign,
//   whatever its marker says: a marker is attribution, never proof.
// - previous: the own marker with the highest round, ties broken by the later time, then the
//   larger id, then the comment over the review of the same id (the later in the context's
//   order; round-first selection); none when there is no own marker.
// - Fail closed: with `me` empty (the login is unknown) and a root carrier (no parentId) holding a
//   critical marker (verdict REQUEST_CHANGES or NEEDS_DISCUSSION, or no verdict or an unreadable
//   marker: cannot tell), RecoverLedger answers `ambiguous` (exit 7) and no ledger.
#ifndef GENTLE_FORGE_LEDGER_RECOVERY_H_
#define GENTLE_FORGE_LEDGER_RECOVERY_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "export/posted_comment.h"
#include "forge/review_context.h"
#include "store/forge_id_kind.h"
#include "store/status.h"
#include "store/verdict_name.h"

namespace gentle::forge {

inline constexpr std::string_view kLedgerSchema = "gentle-ai.review-ledger/v1";

struct LedgerMarker {
  std::string comment_id;
  store::ForgeIdKind id_kind = store::ForgeIdKind::kComment;
  std::string author;
  std::string at;  // the carrier's submittedAt
  bool root = true;
  exporter::PostedComment marker;  // lineage, round, revision, model, session
  std::optional<store::Verdict> verdict;
  bool strict = false;
};

struct UnreadableMarker {
  std::string comment_id;
  store::ForgeIdKind id_kind = store::ForgeIdKind::kComment;
  std::string author;
  std::string at;
  bool root = true;
  std::string reason;
};

struct Ledger {
  store::Forge forge = store::Forge::kGithub;
  std::string me;
  std::optional<LedgerMarker> previous;
  std::vector<LedgerMarker> own, foreign;
  std::vector<UnreadableMarker> unreadable;
};

Result<Ledger> RecoverLedger(const ReviewContext& context, const std::string& me);

nlohmann::ordered_json LedgerJson(const Ledger& ledger);

}  // namespace gentle::forge

#endif  // GENTLE_FORGE_LEDGER_RECOVERY_H_
