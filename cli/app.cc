#include "cli/app.h"

#include <CLI/CLI.hpp>
#include <cstring>
#include <exception>
#include <functional>
#include <iterator>
#include <new>
#include <string_view>

#include "cli/commands.h"
#include "cli/render.h"
#include "cli/version_report.h"
#include "transaction/abandon_reason.h"

namespace gentle::cli {
namespace {

constexpr char kAppDescription[] = "gentle-ai: the review transaction store";

// Every option any verb can take, and the action the parsed verb chose.
struct Invocation {
  CommonOptions common;
  transaction::Selector selector;
  std::string status_lineage;
  ExportOptions export_options;
  std::string export_round, export_since_round;
  VerifyOptions verify_options;
  RemoteOptions remote_options;
  ImportOptions import_options;
  std::string import_remote;
  AttestOptions attest_options;
  CommentOptions comment_options;
  RoundCommentText comment_text;
  PostOptions post_options;
  RoundCommentText post_text;
  std::string parse_comment_file = "-";
  ShowOptions show_options;
  std::string show_round;
  ContextImportOptions context_import;
  std::string pr_view, mr_view, aone_comments, resolved_comments;
  LedgerOptions ledger_options;
  std::string repair_lineage;
  SeenOptions seen;
  std::string seen_ids_file;
  std::string hint_line;
  WatchOptions watch;
  std::string watch_exec, watch_on_new;
  PrStateOptions pr_state;
  std::string pr_phase, pr_head_sha, pr_blocked_on, pr_round, pr_asked;
  std::string against;
  std::string base_ref;  // verify, attest --base-ref
  // The lifecycle verbs. Optional flags are recorded only when given (count), so an empty
  // --expected-revision is refused rather than ignored.
  LifecycleOptions life;
  std::string expected_revision, body, body_file;
  // start and revise: --context FILE / --context-unavailable REASON, recorded only when given.
  std::string context_file, context_unavailable;
  transaction::ContextFlags start_context;
  std::function<int()> action;
};

bool WantsJson(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0) return true;
  }
  return false;
}

// A subcommand that accepts only its declared options, with --cwd and --json.
CLI::App* AddCommand(CLI::App* parent, const char* name, const char* description,
                     CommonOptions* common) {
  CLI::App* command = parent->add_subcommand(name, description);
  command->allow_extras(false);
  command->add_option("--cwd", common->cwd, "Directory inside the repository (default: .)")
      ->type_name("DIR");
  command->add_flag("--json", common->json, "Machine-readable output (errors too)");
  return command;
}

CLI::App* AddGroup(CLI::App* parent, const char* name, const char* description) {
  CLI::App* group = parent->add_subcommand(name, description);
  group->allow_extras(false);
  group->require_subcommand(1);
  return group;
}

void AddLineageFlag(CLI::App* command, Invocation* in) {
  command->add_option("--lineage", in->life.lineage, "The lineage id")->required();
}

void AddRevisionFlag(CLI::App* command, Invocation* in, bool required) {
  auto* option = command->add_option("--expected-revision", in->expected_revision,
                                     "The revision you read (compare-and-swap)");
  if (required) option->required();
}

bool Given(CLI::App* command, const char* name) {
  const CLI::Option* option = command->get_option_no_throw(name);
  return option != nullptr && option->count() > 0;
}

void AddContextFlags(CLI::App* command, Invocation* in) {
  command
      ->add_option("--context", in->context_file,
                   "The round's review context (review context import output): its comment "
                   "ids become the snapshot's ledger ids; kept in the history")
      ->type_name("FILE");
  command
      ->add_option("--context-unavailable", in->context_unavailable,
                   "The harness could not read the review context (REASON): APPROVE is capped "
                   "in this round")
      ->type_name("REASON");
}

transaction::ContextFlags GivenContextFlags(CLI::App* command, const Invocation* in) {
  transaction::ContextFlags flags;
  if (Given(command, "--context")) flags.context_file = in->context_file;
  if (Given(command, "--context-unavailable")) flags.unavailable_reason = in->context_unavailable;
  return flags;
}

// Copies the optional lifecycle flags that were given into `life`.
void RecordGivenFlags(CLI::App* command, Invocation* in) {
  in->life.context = GivenContextFlags(command, in);
  if (Given(command, "--expected-revision")) in->life.expected_revision = in->expected_revision;
  if (Given(command, "--body")) in->life.body = in->body;
  if (Given(command, "--body-file")) in->life.body_file = in->body_file;
}

// Makes `run` the invocation's action once `command` is parsed, with the optional lifecycle flags
// that were given copied into `life` first (a flag the command does not define is never given).
void RunsLifecycle(CLI::App* command, Invocation* in,
                   int (*run)(const CommonOptions&, const LifecycleOptions&)) {
  command->callback([in, command, run] {
    RecordGivenFlags(command, in);
    in->action = [in, run] { return run(in->common, in->life); };
  });
}

// start's selector flags, defined once: start and status take the same ones (status answers for
// the candidate they name).
void AddSelectorFlags(CLI::App* command, transaction::Selector* selector) {
  command->add_option("--kind", selector->kind, "current-changes | base-diff | commit-range");
  command->add_option("--base", selector->base, "Base revision (base-diff, commit-range)")
      ->type_name("REV");
  command->add_option("--head", selector->head, "Head revision (commit-range)")->type_name("REV");
  command->add_flag("--staged", selector->staged, "Review the index instead of the workspace");
  command
      ->add_option("--untracked", selector->untracked,
                   "An untracked file to include (repeatable; relative to the worktree root)")
      ->type_name("PATH");
}

// Whether any selector flag was given (once `command` is parsed).
bool SelectorGiven(CLI::App* command) {
  for (const char* name : {"--kind", "--base", "--head", "--staged", "--untracked"}) {
    if (Given(command, name)) return true;
  }
  return false;
}

void DefineStart(CLI::App* review, Invocation* in) {
  CLI::App* start = AddCommand(
      review, "start",
      "Freeze the live candidate into a lineage (idempotent for the same candidate)", &in->common);
  AddSelectorFlags(start, &in->selector);
  AddContextFlags(start, in);
  start->callback([in, start] {
    in->start_context = GivenContextFlags(start, in);
    in->action = [in] { return RunStart(in->common, in->selector, in->start_context); };
  });
}

void DefineStatus(CLI::App* review, Invocation* in) {
  CLI::App* status = AddCommand(
      review, "status",
      "State, applicability and next action of lineages against the live target (read-only; "
      "with start's selector flags: of the candidate they name)",
      &in->common);
  status->add_option("--lineage", in->status_lineage, "Only this lineage");
  AddSelectorFlags(status, &in->selector);
  status->callback([in, status] {
    std::optional<std::string> lineage;
    if (status->count("--lineage")) lineage = in->status_lineage;
    std::optional<transaction::Selector> selector;
    if (SelectorGiven(status)) selector = in->selector;
    in->action = [in, lineage, selector] { return RunStatus(in->common, lineage, selector); };
  });
}

void DefineList(CLI::App* review, Invocation* in) {
  CLI::App* list =
      AddCommand(review, "list", "Every lineage the store knows (read-only)", &in->common);
  list->callback([in] { in->action = [in] { return RunList(in->common); }; });
}

void DefineExportContext(CLI::App* review, Invocation* in) {
  CLI::App* command = AddCommand(
      review, "export-context",
      "Print the frozen diff of a lineage's current round (--round N: an earlier round; "
      "--since-round N: the interdiff since it), re-derived and verified (read-only; --json: "
      "envelope)",
      &in->common);
  ExportOptions& options = in->export_options;
  command->add_option("--lineage", options.lineage, "The lineage")->required();
  command
      ->add_option("--output", options.output,
                   "Write to FILE (a regular file or a new path) instead of stdout")
      ->type_name("FILE");
  command->add_option("--engine", options.engine,
                      "native (default) or git (the pinned git CLI, for cross-checks)");
  command->add_option("--round", in->export_round,
                      "Export round N (a record generation) from the lineage's history "
                      "(default: the current round)");
  command->add_option("--since-round", in->export_since_round,
                      "Export the interdiff from round N's candidate tree to the current one "
                      "(--json: gentle-ai.review-interdiff-export/v1)");
  command->callback([in, command] {
    if (Given(command, "--round")) in->export_options.round = in->export_round;
    if (Given(command, "--since-round")) in->export_options.since_round = in->export_since_round;
    in->action = [in] { return RunExportContext(in->common, in->export_options); };
  });
}

void DefineVerify(CLI::App* review, Invocation* in) {
  CLI::App* verify = AddCommand(
      review, "verify",
      "CI check: the lineage or envelope binds its bytes; --against REV has its tree", &in->common);
  verify->add_option("--lineage", in->verify_options.lineage, "Verify a lineage of this store");
  verify
      ->add_option("--envelope", in->verify_options.envelope,
                   "Verify a context envelope file (works without a store)")
      ->type_name("FILE");
  verify->add_option("--against", in->against, "A revision whose tree must be the reviewed tree")
      ->type_name("REV");
  verify->add_flag("--require-signature", in->verify_options.require_signature,
                   "--lineage: the approval's history commit must carry an SSH signature by a "
                   "principal of --allowed-signers (else untrusted, exit 10)");
  verify
      ->add_option("--allowed-signers", in->verify_options.allowed_signers,
                   "git's allowed signers file (with --require-signature, --min-approvals or "
                   "--require-signed-commits): a path (symlinks followed), or REF:PATH to read "
                   "it from a commit (e.g. origin/main:.github/allowed_signers), never the "
                   "worktree; a path holding ':' is written ./PATH")
      ->type_name("FILE");
  verify
      ->add_option("--min-approvals", in->verify_options.min_approvals,
                   "--lineage: at least N persons of --allowed-signers (principals and keys "
                   "sharing a line, a key or a principal are one person) signed an approval of "
                   "the round as its actor (else untrusted, exit 10)")
      ->type_name("N");
  verify
      ->add_option("--base-ref", in->base_ref,
                   "The branch the change is to be merged into (e.g. origin/main): with "
                   "--allowed-signers an approval by an author or committer (by email) of "
                   "REF..HEAD does not count; with --allow-trivial-rebase the change is taken "
                   "from merge-base(REF, REV)")
      ->type_name("REF");
  verify->add_flag("--allow-trivial-rebase", in->verify_options.allow_trivial_rebase,
                   "With --against and --base-ref: when the tree is not the reviewed one, accept "
                   "it if its change since merge-base(REF, REV) is the approved patch at other "
                   "line numbers; a merge REV's first parent must be on REF, and a consumed "
                   "approval holds only for its exact tree (docs/ci.md)");
  verify->add_flag("--require-signed-commits", in->verify_options.require_signed_commits,
                   "With --base-ref and --allowed-signers: every commit of REF..REV must carry an "
                   "SSH signature by a key of the file (else untrusted naming the commit, exit "
                   "10), and its signer's person counts as an author for self-approval");
  verify->callback([in, verify] {
    if (verify->count("--against")) in->verify_options.against = in->against;
    if (verify->count("--base-ref")) in->verify_options.base_ref = in->base_ref;
    in->action = [in] { return RunVerify(in->common, in->verify_options); };
  });
}

void DefineAttest(CLI::App* review, Invocation* in) {
  CLI::App* attest = AddCommand(
      review, "attest",
      "An in-toto Statement v1 for an approved (or burned) lineage's approval (read-only)",
      &in->common);
  attest->add_option("--lineage", in->attest_options.lineage, "The approved lineage")->required();
  attest
      ->add_option("--output", in->attest_options.output,
                   "Write the Statement to FILE (a regular file or a new path; atomically) "
                   "instead of stdout")
      ->type_name("FILE");
  attest
      ->add_option("--allowed-signers", in->attest_options.allowed_signers,
                   "Name each approval that counts (signed as its actor by a principal of FILE, "
                   "one per person; a path or REF:PATH as for verify): its principal and key "
                   "fingerprint")
      ->type_name("FILE");
  attest
      ->add_option("--base-ref", in->base_ref,
                   "With --allowed-signers: an approval by an author or committer (by email) of "
                   "REF..HEAD does not count")
      ->type_name("REF");
  attest->callback([in, attest] {
    if (attest->count("--base-ref")) in->attest_options.base_ref = in->base_ref;
    in->action = [in] { return RunAttest(in->common, in->attest_options); };
  });
}

// The flags that choose and mark a round's comment, for `comment` and `post` alike (one renderer,
// cli/round_comment.h); --nonce only for `comment` (`post` draws its own).
void AddRoundCommentOptions(CLI::App* command, RoundCommentFlags* flags, RoundCommentText* text,
                            bool nonce) {
  command->add_option("--lineage", flags->lineage, "The lineage")->required();
  command->add_option("--round", text->round,
                      "The round (record generation) whose verdict to render (default: current)");
  command->add_option("--role", text->role,
                      "Render this role's newest verdict of the round: reviewer or docs-reviewer "
                      "(default: the round's newest verdict, whatever its role)");
  command->add_option("--model", text->model,
                      "Put model=M in the marker (A-Z a-z 0-9 _ : + -, '.' between digits)");
  command->add_option("--session", text->session,
                      "Put session=<first 8 bytes of S> in the marker (same characters)");
  if (nonce) {
    command->add_option("--nonce", text->nonce,
                        "Put nonce=N in the marker (32 lowercase hex digits; review post draws "
                        "its own)");
  }
}

// The round-comment flags given on `command`, into `flags` (an absent flag stays nullopt).
void ApplyRoundCommentOptions(CLI::App* command, const RoundCommentText& text,
                              RoundCommentFlags* flags) {
  if (Given(command, "--round")) flags->round = text.round;
  if (Given(command, "--role")) flags->role = text.role;
  if (Given(command, "--model")) flags->model = text.model;
  if (Given(command, "--session")) flags->session = text.session;
  if (Given(command, "--nonce")) flags->nonce = text.nonce;
}

void DefineComment(CLI::App* review, Invocation* in) {
  CLI::App* comment = AddCommand(
      review, "comment",
      "Print the forge comment for a round's verdict: heading, body, verdict line, marker "
      "(read-only)",
      &in->common);
  AddRoundCommentOptions(comment, &in->comment_options.flags, &in->comment_text, true);
  comment->callback([in, comment] {
    ApplyRoundCommentOptions(comment, in->comment_text, &in->comment_options.flags);
    in->action = [in] { return RunComment(in->common, in->comment_options); };
  });
}

// review post: render, post and record in one step (docs/loop.md "review post").
void DefinePost(CLI::App* review, Invocation* in) {
  CLI::App* post = AddCommand(
      review, "post",
      "Post a round's comment on the PR (GitHub or Gitea, through their REST APIs) and record "
      "its id as posted in the seen ledger, in one crash-safe step",
      &in->common);
  AddRoundCommentOptions(post, &in->post_options.flags, &in->post_text, false);
  post->add_option("--pr", in->post_options.pr, "The pull request: FORGE:OWNER/REPO#N")
      ->type_name("PR")
      ->required();
  post->add_option("--as", in->post_options.as,
                   "review (default: a PR review whose event follows the verdict) or comment (an "
                   "issue comment)");
  post->callback([in, post] {
    ApplyRoundCommentOptions(post, in->post_text, &in->post_options.flags);
    in->action = [in] { return RunPost(in->common, in->post_options); };
  });
}

void DefineShow(CLI::App* review, Invocation* in) {
  CLI::App* show = AddCommand(
      review, "show",
      "A lineage for people: its timeline and a round's diff in git's style (paged, coloured on a "
      "terminal), --json the timeline as data, --html one self-contained page (read-only)",
      &in->common);
  ShowOptions& o = in->show_options;
  show->add_option("--lineage", o.lineage, "The lineage")->required();
  show->add_option("--round", in->show_round,
                   "The round (record generation) whose diff to show (default: the newest)");
  show->add_option("--color", o.color,
                   "auto (default: on a terminal, unless NO_COLOR is set), always or never");
  show->add_flag("--html", o.html,
                 "One HTML page: timeline, every round's diff (unified and side by side), "
                 "interdiffs, verdict bodies from Markdown, signatures and digests");
  show->add_option("--output", o.output,
                   "--html: write the page to FILE (a regular file or a new path; atomically)")
      ->type_name("FILE");
  show->add_option("--allowed-signers", o.allowed_signers,
                   "Check verdict signatures against git's allowed signers FILE, a path or "
                   "REF:PATH as for verify (default: report signed or unsigned only)")
      ->type_name("FILE");
  show->callback([in, show] {
    if (Given(show, "--round")) in->show_options.round = in->show_round;
    in->action = [in] { return RunShow(in->common, in->show_options); };
  });
}

void DefineParseComment(CLI::App* review, Invocation* in) {
  CLI::App* parse = AddCommand(
      review, "parse-comment",
      "Read a posted review comment back strictly and print it as JSON (anything else: usage)",
      &in->common);
  parse->add_option("file", in->parse_comment_file, "The comment file, or - for stdin (default)")
      ->type_name("FILE");
  parse->callback(
      [in] { in->action = [in] { return RunParseComment(in->common, in->parse_comment_file); }; });
}

void DefineContext(CLI::App* review, Invocation* in) {
  CLI::App* context = AddGroup(review, "context", "A forge review's context (docs/loop.md)");
  CLI::App* command =
      AddCommand(context, "import",
                 "Normalize what gh, a1 or Gitea's API printed into one ReviewContext JSON "
                 "(gentle-ai.review-context/v1)",
                 &in->common);
  ContextImportOptions& o = in->context_import;
  command->add_option("--forge", o.forge, "github | aone | gitea")->required();
  command
      ->add_option("--pr-view", in->pr_view,
                   "github: gh pr view --json ... output; gitea: /pulls/N (- stdin)")
      ->type_name("FILE");
  command
      ->add_option("--issue-comments", o.issue_comments,
                   "github, gitea: one page of /issues/N/comments (repeatable)")
      ->type_name("FILE");
  command
      ->add_option("--reviews", o.reviews,
                   "github, gitea: one page of /pulls/N/reviews (repeatable)")
      ->type_name("FILE");
  command
      ->add_option("--review-comments", o.review_comments,
                   "github: one page of /pulls/N/comments; gitea: of /pulls/N/reviews/ID/comments "
                   "(repeatable)")
      ->type_name("FILE");
  command->add_option("--mr-view", in->mr_view, "aone: a1 repo mr view output")->type_name("FILE");
  command->add_option("--comments", in->aone_comments, "aone: the default comment list")
      ->type_name("FILE");
  command
      ->add_option("--resolved-comments", in->resolved_comments,
                   "aone: the --resolved comment list")
      ->type_name("FILE");
  command
      ->add_option("--output", o.output,
                   "Write the context to FILE (a regular file or a new path; atomically)")
      ->type_name("FILE");
  command->callback([in, command] {
    ContextImportOptions& options = in->context_import;
    if (Given(command, "--pr-view")) options.pr_view = in->pr_view;
    if (Given(command, "--mr-view")) options.mr_view = in->mr_view;
    if (Given(command, "--comments")) options.comments = in->aone_comments;
    if (Given(command, "--resolved-comments")) options.resolved_comments = in->resolved_comments;
    in->action = [in] { return RunContextImport(in->common, in->context_import); };
  });
}

void DefineLedger(CLI::App* review, Invocation* in) {
  CLI::App* ledger = AddCommand(
      review, "ledger",
      "Recover earlier rounds from the markers in a ReviewContext's ledger carriers (JSON)",
      &in->common);
  ledger->add_option("--context", in->ledger_options.context, "The ReviewContext file (- stdin)")
      ->type_name("FILE")
      ->required();
  ledger
      ->add_option("--me", in->ledger_options.me,
                   "The forge login of this harness; \"\" when unknown (fails closed on a "
                   "critical root marker)")
      ->required();
  ledger->callback(
      [in] { in->action = [in] { return RunLedger(in->common, in->ledger_options); }; });
}

void DefinePush(CLI::App* review, Invocation* in) {
  CLI::App* push = AddCommand(
      review, "push",
      "Push lineage histories to a remote with your git, never forced (diverged: conflict)",
      &in->common);
  push->add_option("--remote", in->remote_options.remote, "The git remote (default: origin)");
  push->add_option("--lineage", in->remote_options.lineages,
                   "Push only this lineage (repeatable; default: every local history)");
  push->callback([in] { in->action = [in] { return RunPush(in->common, in->remote_options); }; });
}

void DefineFetch(CLI::App* review, Invocation* in) {
  CLI::App* fetch = AddCommand(
      review, "fetch",
      "Fetch a remote's lineage histories into refs/gentle-ai/remotes/R/ and verify each",
      &in->common);
  fetch->add_option("--remote", in->remote_options.remote, "The git remote (default: origin)");
  fetch->callback([in] { in->action = [in] { return RunFetch(in->common, in->remote_options); }; });
}

void DefineVerdict(CLI::App* review, Invocation* in) {
  CLI::App* verdict = AddCommand(review, "verdict", "Record a reviewer's verdict", &in->common);
  AddLineageFlag(verdict, in);
  verdict
      ->add_option("--verdict", in->life.verdict,
                   "APPROVE | REQUEST_CHANGES | NEEDS_DISCUSSION (reviewer); APPROVE | FIXED | "
                   "NO_CHANGES (docs-reviewer; FIXED and NO_CHANGES keep the state)")
      ->required();
  verdict->add_option("--actor", in->life.actor,
                      "Who decides (required unless --sign: then the signing key's principal in "
                      "gpg.ssh.allowedSignersFile)");
  verdict
      ->add_option("--role", in->life.role,
                   "The actor's role: reviewer or docs-reviewer (others: forbidden)")
      ->required();
  verdict->add_option("--body", in->body, "The review body text");
  verdict->add_option("--body-file", in->body_file, "A file holding the review body")
      ->type_name("FILE");
  verdict->add_flag("--sign", in->life.sign,
                    "APPROVE only: sign the approval's history commit as git commit -S does "
                    "(gpg.format=ssh, user.signingKey, gpg.ssh.program; git config "
                    "gentle-ai.signApprovals=true signs without it)");
  AddRevisionFlag(verdict, in, false);
  RunsLifecycle(verdict, in, RunVerdict);
}

void DefineBurn(CLI::App* review, Invocation* in) {
  CLI::App* burn = AddCommand(
      review, "burn", "Consume an approved lineage's acknowledgement token (exclusive lock)",
      &in->common);
  AddLineageFlag(burn, in);
  burn->add_option("--token", in->life.token, "The token APPROVE returned")->required();
  AddRevisionFlag(burn, in, true);
  RunsLifecycle(burn, in, RunBurn);
}

void DefineAbandon(CLI::App* review, Invocation* in) {
  CLI::App* abandon =
      AddCommand(review, "abandon", "Retire a lineage into quarantine", &in->common);
  AddLineageFlag(abandon, in);
  std::string reasons;  // "operator_disposition | retired_schema"
  for (transaction::AbandonReason reason : transaction::kAllAbandonReasons) {
    reasons += (reasons.empty() ? "" : " | ") + std::string(transaction::AbandonReasonName(reason));
  }
  abandon->add_option("--reason", in->life.reason, reasons)->required();
  abandon->add_option("--actor", in->life.actor, "Who decides")->required();
  AddRevisionFlag(abandon, in, false);
  RunsLifecycle(abandon, in, RunAbandon);
}

void DefineReclaim(CLI::App* review, Invocation* in) {
  CLI::App* reclaim =
      AddCommand(review, "reclaim",
                 "Retire an incomplete lineage entry (no record) into quarantine", &in->common);
  AddLineageFlag(reclaim, in);
  reclaim->add_option("--reason", in->life.reason, "Why")->required();
  reclaim->add_option("--actor", in->life.actor, "Who decides")->required();
  RunsLifecycle(reclaim, in, RunReclaim);
}

void DefineInvalidate(CLI::App* review, Invocation* in) {
  CLI::App* invalidate = AddCommand(
      review, "invalidate", "Withdraw a pristine reviewing lineage (the record stays, invalidated)",
      &in->common);
  AddLineageFlag(invalidate, in);
  invalidate->add_option("--reason", in->life.reason, "Why")->required();
  invalidate->add_option("--actor", in->life.actor, "Who decides")->required();
  AddRevisionFlag(invalidate, in, false);
  RunsLifecycle(invalidate, in, RunInvalidate);
}

void DefineRevise(CLI::App* review, Invocation* in) {
  CLI::App* revise = AddCommand(
      review, "revise",
      "Start the next review round after REQUEST_CHANGES: re-capture the live candidate with the "
      "lineage's own selector",
      &in->common);
  AddLineageFlag(revise, in);
  AddRevisionFlag(revise, in, false);
  AddContextFlags(revise, in);
  RunsLifecycle(revise, in, RunRevise);
}

void DefineImport(CLI::App* review, Invocation* in) {
  CLI::App* command = AddCommand(
      review, "import",
      "Bring a fetched lineage into the local store: verify its whole history, fast-forward only "
      "(exclusive lock)",
      &in->common);
  command->add_option("--lineage", in->import_options.lineage, "The lineage id")->required();
  command->add_option("--remote", in->import_remote,
                      "The remote it was fetched from (default: the only one that has it)");
  command->add_flag("--accept-terminal", in->import_options.accept_terminal,
                    "Take a burn or abandon from the remote for a lineage that is live here "
                    "(refused as conflict without it)");
  command->callback([in, command] {
    if (Given(command, "--remote")) in->import_options.remote = in->import_remote;
    in->action = [in] { return RunImport(in->common, in->import_options); };
  });
}

void DefineStore(CLI::App* review, Invocation* in) {
  CLI::App* store = AddGroup(review, "store", "The store as a whole");
  CLI::App* reset = AddCommand(
      store, "reset", "Remove the whole store and its history refs (prints the plan unless --yes)",
      &in->common);
  reset->add_flag("--yes", in->life.yes, "Really remove");
  RunsLifecycle(reset, in, RunStoreReset);
}

void DefineFsck(CLI::App* review, Invocation* in) {
  CLI::App* fsck = AddCommand(
      review, "fsck",
      "Prove that files, index and history refs agree (read-only; exit 0 only when clean)",
      &in->common);
  fsck->callback([in] { in->action = [in] { return RunFsck(in->common); }; });
}

void DefineIndex(CLI::App* review, Invocation* in) {
  CLI::App* index = AddGroup(review, "index", "The SQLite index");
  CLI::App* rebuild =
      AddCommand(index, "rebuild", "Regenerate index.sqlite from the files alone", &in->common);
  rebuild->callback([in] { in->action = [in] { return RunIndexRebuild(in->common); }; });
}

void DefineRepair(CLI::App* review, Invocation* in) {
  CLI::App* repair = AddCommand(
      review, "repair",
      "Bring histories level with the records: roll back tips ahead, record what is behind",
      &in->common);
  repair->add_option("--lineage", in->repair_lineage, "Only this lineage (default: all)");
  repair->callback([in, repair] {
    std::optional<std::string> lineage;
    if (repair->count("--lineage")) lineage = in->repair_lineage;
    in->action = [in, lineage] { return RunRepair(in->common, lineage); };
  });
}

// review seen baseline|add|check|list|new: each verb takes only the flags it uses.
void DefineSeen(CLI::App* review, Invocation* in) {
  CLI::App* seen =
      AddGroup(review, "seen",
               "The seen ledger: per pull request, the comment and review ids handled or posted "
               "(review-loop.sqlite)");
  // One description per SeenVerb, in kAllSeenVerbs' order.
  constexpr const char* kDescriptions[] = {
      "Record the PR's existing comment and review ids once (again only with --force)",
      "Record ids handled (or, with --posted, posted: record at post time)",
      "Whether one id is seen (read-only; exit 0 either way)",
      "The PR's seen ids with kind and time, in insertion order (read-only)",
      "The comment ids, then the review ids, of a ReviewContext not seen yet (read-only)",
  };
  static_assert(std::size(kDescriptions) == std::size(kAllSeenVerbs));
  for (size_t i = 0; i < std::size(kAllSeenVerbs); ++i) {
    const SeenVerb verb = kAllSeenVerbs[i];
    const std::string name(SeenVerbName(verb));
    CLI::App* command = AddCommand(seen, name.c_str(), kDescriptions[i], &in->common);
    command->add_option("--pr", in->seen.pr, "The pull request: FORGE:OWNER/REPO#N")->required();
    if (verb == SeenVerb::kBaseline || verb == SeenVerb::kAdd || verb == SeenVerb::kCheck) {
      auto* id = command->add_option(
          "--id", in->seen.ids,
          verb == SeenVerb::kCheck
              ? "The id: N (comment N) or review:N (the body of review N)"
              : "An id: N (comment N) or review:N (the body of review N); repeatable");
      if (verb == SeenVerb::kCheck) id->required();
    }
    if (verb == SeenVerb::kBaseline || verb == SeenVerb::kAdd) {
      command
          ->add_option("--ids-file", in->seen_ids_file,
                       "A file of ids (N or review:N), one per line (- for stdin)")
          ->type_name("FILE");
    }
    if (verb == SeenVerb::kBaseline) {
      command->add_flag("--force", in->seen.force,
                        "Baseline again: add the ids, keep everything already seen");
    }
    if (verb == SeenVerb::kAdd) {
      command->add_flag("--posted", in->seen.posted,
                        "The ids are comments or reviews you posted (recorded in the same step as "
                        "the post)");
    }
    if (verb == SeenVerb::kNew) {
      command->add_option("--context", in->seen.context, "A ReviewContext JSON file")
          ->type_name("FILE")
          ->required();
    }
    command->callback([in, command, verb] {
      in->seen.verb = verb;
      if (Given(command, "--ids-file")) in->seen.ids_file = in->seen_ids_file;
      in->action = [in] { return RunSeen(in->common, in->seen); };
    });
  }
}

void DefineHint(CLI::App* review, Invocation* in) {
  CLI::App* hint = AddGroup(review, "hint", "PR daemon hint lines");
  CLI::App* parse = AddCommand(
      hint, "parse",
      "Check one [pr-daemon] hint line strictly and print it as JSON (anything else: usage)",
      &in->common);
  parse->add_option("line", in->hint_line, "The hint line (one argument)")->required();
  parse->callback([in] { in->action = [in] { return RunHintParse(in->common, in->hint_line); }; });
}

// review watch: the PR daemon (docs/watch.md).
void DefineWatch(CLI::App* review, Invocation* in) {
  CLI::App* watch =
      AddCommand(review, "watch",
                 "The PR daemon: poll GitHub and Gitea for PR changes and deliver one-line "
                 "hints (--once: one cycle)",
                 &in->common);
  watch
      ->add_option("--repo", in->watch.repos,
                   "A repository whose worktrees' PRs to watch (repeatable; default: the current "
                   "one)")
      ->type_name("DIR");
  watch->add_option("--pr", in->watch.prs, "Watch this PR only: FORGE:OWNER/REPO#N (repeatable)")
      ->type_name("PR");
  watch->add_flag("--once", in->watch.once, "Run one cycle and exit");
  watch
      ->add_option("--exec", in->watch_exec,
                   "Deliver each hint by running CMD with the hint and the owning worktree as "
                   "arguments (default: print it)")
      ->type_name("CMD");
  watch
      ->add_option("--on-new", in->watch_on_new,
                   "Deliver the hints of PRs no worktree owns by running CMD with the hint")
      ->type_name("CMD");
  watch->callback([in, watch] {
    if (Given(watch, "--exec")) in->watch.exec = in->watch_exec;
    if (Given(watch, "--on-new")) in->watch.on_new = in->watch_on_new;
    in->action = [in] { return RunWatch(in->common, in->watch); };
  });
}

// review pr-state show|set: a session's PR state (docs/watch.md).
void DefinePrState(CLI::App* review, Invocation* in) {
  CLI::App* group = AddGroup(review, "pr-state",
                             "A session's PR state: phase, head SHA, what each round asked for, "
                             "what it is blocked on (review-loop.sqlite)");
  const std::string show_name(PrStateVerbName(PrStateVerb::kShow));
  const std::string set_name(PrStateVerbName(PrStateVerb::kSet));
  CLI::App* show = AddCommand(group, show_name.c_str(),
                              "Print the PR's state as Markdown (read-only)", &in->common);
  CLI::App* set =
      AddCommand(group, set_name.c_str(), "Record fields of the PR's state", &in->common);
  for (CLI::App* command : {show, set}) {
    command->add_option("--pr", in->pr_state.pr, "The pull request: FORGE:OWNER/REPO#N")
        ->required();
  }
  set->add_option("--phase", in->pr_phase, "The current phase (one line)");
  set->add_option("--head-sha", in->pr_head_sha, "The head commit the session works on");
  set->add_option("--blocked-on", in->pr_blocked_on,
                  "What the PR is blocked on (one line; empty clears it)");
  set->add_option("--round", in->pr_round, "A round of feedback (N >= 1), with --asked");
  set->add_option("--asked", in->pr_asked, "What that round asked for");
  show->callback([in] {
    in->pr_state.verb = PrStateVerb::kShow;
    in->action = [in] { return RunPrState(in->common, in->pr_state); };
  });
  set->callback([in, set] {
    in->pr_state.verb = PrStateVerb::kSet;
    if (Given(set, "--phase")) in->pr_state.phase = in->pr_phase;
    if (Given(set, "--head-sha")) in->pr_state.head_sha = in->pr_head_sha;
    if (Given(set, "--blocked-on")) in->pr_state.blocked_on = in->pr_blocked_on;
    if (Given(set, "--round")) in->pr_state.round = in->pr_round;
    if (Given(set, "--asked")) in->pr_state.asked = in->pr_asked;
    in->action = [in] { return RunPrState(in->common, in->pr_state); };
  });
}

// The verbs of `gentle-ai review`, in the order --help lists them.
struct Verb {
  std::string_view name;
  void (*define)(CLI::App* review, Invocation* in);
};
constexpr Verb kVerbs[] = {
    {"start", DefineStart},      {"status", DefineStatus},
    {"list", DefineList},        {"export-context", DefineExportContext},
    {"verify", DefineVerify},    {"attest", DefineAttest},
    {"comment", DefineComment},  {"parse-comment", DefineParseComment},
    {"post", DefinePost},        {"show", DefineShow},
    {"verdict", DefineVerdict},  {"revise", DefineRevise},
    {"burn", DefineBurn},        {"abandon", DefineAbandon},
    {"reclaim", DefineReclaim},  {"invalidate", DefineInvalidate},
    {"push", DefinePush},        {"fetch", DefineFetch},
    {"import", DefineImport},    {"store", DefineStore},
    {"fsck", DefineFsck},        {"index", DefineIndex},
    {"repair", DefineRepair},    {"context", DefineContext},
    {"ledger", DefineLedger},    {"seen", DefineSeen},
    {"hint", DefineHint},        {"watch", DefineWatch},
    {"pr-state", DefinePrState},
};

// The verb `gentle-ai review VERB ...` names, or null. Building CLI11 options costs about as much
// as a small export itself (docs/performance.md), so a recognised verb is defined alone; anything
// else (help, a typo, a missing verb) gets the whole table and CLI11's own answer.
const Verb* InvokedVerb(int argc, char** argv) {
  if (argc < 3 || std::strcmp(argv[1], "review") != 0) return nullptr;
  for (const Verb& verb : kVerbs) {
    if (verb.name == argv[2]) return &verb;
  }
  return nullptr;
}

// gentle-ai version [--json]: only --json (no repository is read).
void DefineVersion(CLI::App* app, Invocation* in) {
  CLI::App* version = app->add_subcommand(
      "version", "The version of this build and of the libraries linked in (libgit2, SQLite, ...)");
  version->allow_extras(false);
  version->add_flag("--json", in->common.json, "Machine-readable output");
  version->callback([in] { in->action = [in] { return RunVersion(in->common); }; });
}

// The --version text: RenderVersionText without its final newline (CLI11 adds one).
std::string VersionFlagText() {
  std::string text = RenderVersionText(CollectVersionReport());
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// The root of the tree: `gentle-ai` and the `review` group, whose verbs (and the root's
// --version) are defined by the caller.
void DefineRoot(CLI::App* app) {
  app->name("gentle-ai");
  app->allow_extras(false);
  app->require_subcommand(1);
}

CLI::App* DefineReviewGroup(CLI::App* app) {
  return AddGroup(app, "review", "Review transactions: freeze, inspect, decide");
}

// Every verb of `review`, the `version` command and --version: the tree help, typos and docs
// see. (Once `review VERB` is parsed, an option the verb does not define is refused, never
// handed back to the root, so a verb defined alone needs no --version.)
void DefineAllCommands(CLI::App* app, CLI::App* review, Invocation* in) {
  for (const Verb& each : kVerbs) each.define(review, in);
  DefineVersion(app, in);
  app->set_version_flag("--version", VersionFlagText, "Print the version of this build and exit");
}

int ParseAndRun(int argc, char** argv) {
  CLI::App app{kAppDescription};
  DefineRoot(&app);
  CLI::App* review = DefineReviewGroup(&app);
  Invocation in;
  if (const Verb* verb = InvokedVerb(argc, argv)) {
    verb->define(review, &in);  // a review verb alone: no other verb, `version` or --version
  } else {
    DefineAllCommands(&app, review, &in);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return ReportError(Status(Code::kUsage, e.what()), WantsJson(argc, argv));
  }
  return in.action ? in.action() : 0;
}

// An exception that reached the edge is a bug: reported as `internal` (exit 1), never an abort.
int ReportEscapedException(const char* what, bool json) {
  return ReportError(Status(Code::kInternal, std::string("unexpected exception: ") + what), json);
}

}  // namespace

void VisitCommandTree(const std::function<void(const CLI::App& root)>& visit) {
  CLI::App app{kAppDescription};
  DefineRoot(&app);
  CLI::App* review = DefineReviewGroup(&app);
  Invocation in;
  DefineAllCommands(&app, review, &in);
  visit(app);
}

int Run(int argc, char** argv) {
  try {
    return ParseAndRun(argc, argv);
  } catch (const std::bad_alloc&) {
    return ReportEscapedException("out of memory", WantsJson(argc, argv));
  } catch (const std::exception& e) {
    return ReportEscapedException(e.what(), WantsJson(argc, argv));
  } catch (...) {
    return ReportEscapedException("not a std::exception", WantsJson(argc, argv));
  }
}

}  // namespace gentle::cli
