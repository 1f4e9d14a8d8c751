// RenderRoundComment: the forge comment of one round's verdict, the one renderer of `review
// comment` (which prints it) and `review post` (which posts it), so both give the same bytes for
// the same flags (docs/loop.md). The marker values (--model, --session, --nonce) are checked
// before anything is read (without --session, the harness's session id from the environment,
// loop/harness_env.h); then the round's verdict (export/round_verdict.h), the kind its role
// may render (`forbidden` otherwise), and the comment (export/posted_comment.h). Read-only.
#ifndef GENTLE_CLI_ROUND_COMMENT_H_
#define GENTLE_CLI_ROUND_COMMENT_H_

#include <optional>
#include <string>

#include "export/posted_comment.h"
#include "export/round_verdict.h"
#include "store/status.h"

namespace gentle::cli {

struct RoundCommentFlags {
  std::string lineage;
  std::optional<std::string> round;     // --round text, checked as a decimal >= 1
  std::optional<store::RoleWord> role;  // reviewer | docs-reviewer, as given
  std::optional<std::string> model, session, nonce;
};

struct RenderedComment {
  exporter::RoundVerdict verdict;  // the round, role and verdict rendered
  // verdict's role and verdict, which exporter::CommentKindFor accepted.
  store::ReviewerRole checked_role = store::ReviewerRole::kReviewer;
  store::Verdict checked_verdict = store::Verdict::kApprove;
  std::string text;  // the comment's bytes
};

Result<RenderedComment> RenderRoundComment(const std::string& cwd, const RoundCommentFlags& flags);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_ROUND_COMMENT_H_
