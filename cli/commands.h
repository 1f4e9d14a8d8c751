// The commands behind `gentle-ai review ...`, each taking parsed options and returning the process
// exit code. Parsing lives in app.cc; the domain lives in transaction/ and export/.
#ifndef GENTLE_CLI_COMMANDS_H_
#define GENTLE_CLI_COMMANDS_H_

#include <optional>
#include <string>
#include <vector>

#include "cli/pr_state_verb.h"
#include "cli/round_comment.h"
#include "cli/seen_verb.h"
#include "export/engine.h"
#include "transaction/round_context_binding.h"
#include "transaction/selector.h"
#include "watch/post_as.h"

namespace gentle::cli {

struct CommonOptions {
  std::string cwd = ".";
  bool json = false;
};

int RunStart(const CommonOptions& common, const transaction::Selector& selector,
             const transaction::ContextFlags& context);
// `selector`: start's selector flags, when any was given (status answers for that candidate).
int RunStatus(const CommonOptions& common, const std::optional<std::string>& lineage,
              const std::optional<transaction::Selector>& selector);
int RunList(const CommonOptions& common);

struct ExportOptions {
  std::string lineage;
  std::string engine{exporter::EngineName(exporter::Engine::kNative)};  // --engine
  std::string output;                                                   // empty: stdout
  std::optional<std::string> round;        // --round N, checked as a decimal >= 1
  std::optional<std::string> since_round;  // --since-round N (exclusive with --round)
};
int RunExportContext(const CommonOptions& common, const ExportOptions& options);

struct VerifyOptions {
  std::string lineage;
  std::string envelope;  // a file path; exclusive with lineage
  std::optional<std::string> against;
  bool require_signature = false;  // with allowed_signers, --lineage only
  std::string allowed_signers;
  int min_approvals = 0;  // 0: not given (export/approval_policy.h)
  // --base-ref REF: the branch the change is merged into; self-approval exclusion with
  // allowed_signers, the rebase base with allow_trivial_rebase (docs/ci.md).
  std::optional<std::string> base_ref;
  bool allow_trivial_rebase = false;  // with base_ref and against (export/trivial_rebase.h)
  // with base_ref and allowed_signers: every commit of REF..REV signed (export/approval_policy.h)
  bool require_signed_commits = false;
};
int RunVerify(const CommonOptions& common, const VerifyOptions& options);

// review push | fetch (docs/format.md)
struct RemoteOptions {
  std::string remote = "origin";
  std::vector<std::string> lineages;  // push only; empty: every local history
};
int RunPush(const CommonOptions& common, const RemoteOptions& options);
int RunFetch(const CommonOptions& common, const RemoteOptions& options);
struct ImportOptions {
  std::string lineage;
  std::optional<std::string> remote;
  bool accept_terminal = false;
};
int RunImport(const CommonOptions& common, const ImportOptions& options);
// The Statement is JSON with or without --json (which makes errors JSON too).
struct AttestOptions {
  std::string lineage;
  std::string output;           // empty: stdout
  std::string allowed_signers;  // names the counted approvals (export/approval_policy.h)
  std::optional<std::string> base_ref;
};
int RunAttest(const CommonOptions& common, const AttestOptions& options);

// review comment: the forge comment for a round's verdict (docs/loop.md). The comment is
// text with or without --json (which makes errors JSON).
struct CommentOptions {
  RoundCommentFlags flags;  // lineage, round, role, and the marker's model, session and nonce
};
int RunComment(const CommonOptions& common, const CommentOptions& options);
// The --round, --role, --model, --session (and comment's --nonce) text as given (app.cc).
struct RoundCommentText {
  std::string round, role, model, session, nonce;
};
// review post: the round's comment rendered as `comment` renders it, posted on the PR and its id
// recorded as posted in the seen ledger, crash-safe by a recorded intent (docs/loop.md).
struct PostOptions {
  RoundCommentFlags flags;
  std::string pr;
  std::string as{watch::PostAsName(watch::PostAs::kReview)};  // --as: review | comment
};
int RunPost(const CommonOptions& common, const PostOptions& options);
// review show: a lineage's timeline and a round's diff for people (docs/show.md): text in git's
// style (coloured and paged on a terminal), --json gentle-ai.review-show/v1, or --html one page.
struct ShowOptions {
  std::string lineage;
  std::optional<std::string> round;  // checked as a decimal >= 1
  std::string color = "auto";        // auto | always | never
  bool html = false;
  std::string output;           // --html: write to FILE (atomically); empty: stdout
  std::string allowed_signers;  // check verdict signatures against git's allowed signers FILE
};
int RunShow(const CommonOptions& common, const ShowOptions& options);
// review parse-comment [FILE|-]: JSON gentle-ai.review-comment/v1 with or without --json.
int RunParseComment(const CommonOptions& common, const std::string& file);

// review context import: a forge's JSON normalized into one ReviewContext (docs/context.md),
// written to `output` (atomically) or stdout. Per forge, only its own flags may be given.
struct ContextImportOptions {
  std::string forge;  // a forge name (forge/forge_name.h): github | aone | gitea
  std::optional<std::string> pr_view;
  std::vector<std::string> issue_comments, reviews, review_comments;  // one page each
  std::optional<std::string> mr_view, comments, resolved_comments;
  std::string output;  // empty: stdout
};
int RunContextImport(const CommonOptions& common, const ContextImportOptions& options);
// review ledger: JSON gentle-ai.review-ledger/v1 with or without --json.
struct LedgerOptions {
  std::string context;
  std::string me;  // "": the login is unknown
};
int RunLedger(const CommonOptions& common, const LedgerOptions& options);

// review verdict | revise | burn | abandon | reclaim | invalidate | store reset | fsck |
// index rebuild
struct LifecycleOptions {
  std::string lineage;
  std::string verdict;
  std::string actor;
  std::string role;
  std::optional<std::string> body;
  std::optional<std::string> body_file;
  std::string token;
  std::string reason;
  std::optional<std::string> expected_revision;
  bool yes = false;
  bool sign = false;                  // verdict --sign
  transaction::ContextFlags context;  // revise --context / --context-unavailable
};

int RunVerdict(const CommonOptions& common, const LifecycleOptions& options);
int RunBurn(const CommonOptions& common, const LifecycleOptions& options);
int RunAbandon(const CommonOptions& common, const LifecycleOptions& options);
int RunReclaim(const CommonOptions& common, const LifecycleOptions& options);
int RunInvalidate(const CommonOptions& common, const LifecycleOptions& options);
int RunRevise(const CommonOptions& common, const LifecycleOptions& options);
int RunStoreReset(const CommonOptions& common, const LifecycleOptions& options);
int RunFsck(const CommonOptions& common);
int RunIndexRebuild(const CommonOptions& common);
// review repair [--lineage L]
int RunRepair(const CommonOptions& common, const std::optional<std::string>& lineage);

// review seen baseline | add | check | list | new (docs/loop.md).
struct SeenOptions {
  SeenVerb verb = SeenVerb::kList;
  std::string pr;
  std::vector<std::string> ids;         // --id (repeatable; check: exactly one)
  std::optional<std::string> ids_file;  // --ids-file FILE|-: one id per line
  std::string context;                  // new: --context FILE
  bool posted = false;                  // add --posted
  bool force = false;                   // baseline --force
};
int RunSeen(const CommonOptions& common, const SeenOptions& options);
// review watch: the PR daemon (docs/watch.md). Runs until killed, or one cycle with --once.
struct WatchOptions {
  std::vector<std::string> repos;  // --repo DIR (repeatable); none: the current repository
  std::vector<std::string> prs;    // --pr FORGE:OWNER/REPO#N (repeatable); none: discover
  bool once = false;
  std::optional<std::string> exec, on_new;
};
int RunWatch(const CommonOptions& common, const WatchOptions& options);
// review pr-state show|set --pr P: a session's PR state, Markdown or JSON (docs/watch.md).
struct PrStateOptions {
  PrStateVerb verb = PrStateVerb::kShow;
  std::string pr;
  std::optional<std::string> phase, head_sha, blocked_on, round, asked;
};
int RunPrState(const CommonOptions& common, const PrStateOptions& options);
// review hint parse LINE: JSON gentle-ai.review-hint/v1 with or without --json.
int RunHintParse(const CommonOptions& common, const std::string& line);
// gentle-ai version [--json]: text, or JSON gentle-ai.version/v1 (cli/version_report.h).
int RunVersion(const CommonOptions& common);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_COMMANDS_H_
