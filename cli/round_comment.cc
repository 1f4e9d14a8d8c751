#include "cli/round_comment.h"

#include "cli/round_flag.h"
#include "loop/harness_env.h"

namespace gentle::cli {

Result<RenderedComment> RenderRoundComment(const std::string& cwd, const RoundCommentFlags& flags) {
  exporter::PostedComment comment;
  if (flags.model) {
    GENTLE_RETURN_IF_ERROR(exporter::CheckMarkerValue("--model", *flags.model));
    comment.model = flags.model;
  }
  if (flags.session) {
    GENTLE_RETURN_IF_ERROR(exporter::CheckMarkerValue("--session", *flags.session));
    comment.session = flags.session;
  } else if (std::optional<std::string> session = loop::SessionFromEnvironment()) {
    // The harness's session id (docs/loop.md, "The harness's environment"), checked as --session.
    GENTLE_RETURN_IF_ERROR(exporter::CheckMarkerValue(
        "$CLAUDE_CODE_SESSION_ID or $PI_SESSION_ID (the default of --session)", *session));
    comment.session = std::move(session);
  }
  if (flags.nonce) {
    GENTLE_RETURN_IF_ERROR(exporter::CheckNonce("--nonce", *flags.nonce));
    comment.nonce = flags.nonce;
  }
  GENTLE_ASSIGN_OR_RETURN(std::optional<int64_t> round, ParseRoundFlag("--round", flags.round));
  RenderedComment out;
  GENTLE_ASSIGN_OR_RETURN(out.verdict,
                          exporter::ReadRoundVerdict(cwd, flags.lineage, round, flags.role));
  auto kind = exporter::CommentKindFor(out.verdict.role, out.verdict.verdict);
  if (!kind.ok()) return Status(kind.status()).WithLineage(flags.lineage);
  comment.kind = *kind;
  out.checked_role = *out.verdict.role.value();
  out.checked_verdict = *out.verdict.verdict.value();
  comment.verdict = out.verdict.verdict;
  comment.body = out.verdict.body;
  comment.lineage = out.verdict.lineage;
  comment.round = out.verdict.round;
  comment.revision = out.verdict.revision;
  auto text = exporter::RenderComment(comment);
  if (!text.ok()) return Status(text.status()).WithLineage(flags.lineage);
  out.text = std::move(text).value();
  return out;
}

}  // namespace gentle::cli
