// The closed vocabularies printed or stored as names: each enumerator has its one name, in the
// order its kAll... list gives, and each name (and nothing else) reads back as it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/pr_state_verb.h"
#include "cli/seen_verb.h"
#include "export/policy_skip.h"
#include "export/rebase_refusal.h"
#include "forge/comment_channel.h"
#include "forge/forge_review_state.h"
#include "store/detail_key.h"
#include "store/history_verb.h"
#include "store/review_state.h"
#include "store/status.h"
#include "store/verdict_name.h"
#include "tests/support/files.h"
#include "transaction/abandon_reason.h"
#include "transaction/approval_outcome.h"
#include "transaction/import_outcome.h"
#include "transaction/list.h"
#include "transaction/next_action.h"
#include "transaction/reviewer_runtime.h"
#include "watch/forge_pr_state.h"
#include "watch/review_event.h"

namespace gentle {
namespace {

// Every name of `all`, checking that each reads back as its enumerator.
template <typename Enum, size_t N, typename NameFn, typename ParseFn>
std::vector<std::string> Names(const Enum (&all)[N], NameFn name, ParseFn parse) {
  std::vector<std::string> names;
  for (Enum value : all) {
    names.emplace_back(name(value));
    CHECK(parse(name(value)) == value);
  }
  return names;
}

const char* const kOthers[] = {"", " ", "Add", "add ", "seen", "shown", "SET", "list\n"};

TEST_CASE("name tables: review seen and pr-state verbs") {
  CHECK(Names(cli::kAllSeenVerbs, cli::SeenVerbName, cli::ParseSeenVerb) ==
        std::vector<std::string>{"baseline", "add", "check", "list", "new"});
  CHECK(Names(cli::kAllPrStateVerbs, cli::PrStateVerbName, cli::ParsePrStateVerb) ==
        std::vector<std::string>{"show", "set"});
  for (const char* other : kOthers) {
    INFO(other);
    CHECK_FALSE(cli::ParseSeenVerb(other).has_value());
    CHECK_FALSE(cli::ParsePrStateVerb(other).has_value());
  }
}

// Written into the audit record of an abandon (its `reason` member).
TEST_CASE("name tables: abandon reasons") {
  CHECK(Names(transaction::kAllAbandonReasons, transaction::AbandonReasonName,
              transaction::ParseAbandonReason) ==
        std::vector<std::string>{"operator_disposition", "retired_schema"});
  for (const char* other : {"", "operator_disposition ", " retired_schema", "Retired_Schema",
                            "retired-schema", "operator"}) {
    INFO(other);
    CHECK_FALSE(transaction::ParseAbandonReason(other).has_value());
  }
}

// The verdict answer's `approval` member.
TEST_CASE("name tables: approval outcomes") {
  CHECK(Names(transaction::kAllApprovalOutcomes, transaction::ApprovalOutcomeName,
              transaction::ParseApprovalOutcome) ==
        std::vector<std::string>{"approval", "co_approval", "repeat"});
  for (const char* other : {"", "verdict", "co-approval", "Approval", "approved", "repeat "}) {
    INFO(other);
    CHECK_FALSE(transaction::ParseApprovalOutcome(other).has_value());
  }
}

// The import answer's `outcome` member.
TEST_CASE("name tables: import outcomes") {
  CHECK(Names(transaction::kAllImportOutcomes, transaction::ImportOutcomeName,
              transaction::ParseImportOutcome) ==
        std::vector<std::string>{"imported", "up_to_date"});
  for (const char* other : {"", "up-to-date", "Imported", "created", "updated"}) {
    INFO(other);
    CHECK_FALSE(transaction::ParseImportOutcome(other).has_value());
  }
}

// verify's skipped approvals (`reason`, `details.skipped`, `details.reason`).
TEST_CASE("name tables: approval policy skips") {
  CHECK(Names(exporter::kAllPolicySkips, exporter::PolicySkipName, exporter::ParsePolicySkip) ==
        std::vector<std::string>{"actor_mismatch", "self_approval", "duplicate_principal",
                                 "same_person"});
  for (const char* other :
       {"", "unsigned", "untrusted", "too_few_approvals", "self-approval", "Actor_mismatch"}) {
    INFO(other);
    CHECK_FALSE(exporter::ParsePolicySkip(other).has_value());
  }
}

// Why verify --allow-trivial-rebase refused a tree (details.reason of its not_reviewed).
TEST_CASE("name tables: trivial rebase refusals") {
  CHECK(Names(exporter::kAllRebaseRefusals, exporter::RebaseRefusalName,
              exporter::ParseRebaseRefusal) ==
        std::vector<std::string>{"consumed", "first_parent_off_base", "no_merge_base",
                                 "several_merge_bases", "over_budget", "patch_differs"});
  for (const char* other : {"", "not_reviewed", "first-parent-off-base", "Consumed", "merge"}) {
    INFO(other);
    CHECK_FALSE(exporter::ParseRebaseRefusal(other).has_value());
  }
}

// A PR's state on its forge (the watch state stores open or closed and merged).
TEST_CASE("name tables: forge PR states") {
  CHECK(Names(watch::kAllForgePrStates, watch::ForgePrStateName, watch::ParseForgePrState) ==
        std::vector<std::string>{"open", "closed", "merged"});
  for (const char* other : {"", "OPEN", "Closed", "all", "draft", "open "}) {
    INFO(other);
    CHECK_FALSE(watch::ParseForgePrState(other).has_value());
  }
}

// What `start --runtime` takes (docs/lifecycle.md, "The reviewer's budget"), and each one's budget.
TEST_CASE("name tables: reviewer runtimes and their budgets") {
  CHECK(Names(transaction::kAllReviewerRuntimes, transaction::ReviewerRuntimeName,
              transaction::ParseReviewerRuntime) ==
        std::vector<std::string>{"claude", "claude-code", "pi", "codex", "opencode"});
  std::vector<uint64_t> budgets;
  for (transaction::ReviewerRuntime r : transaction::kAllReviewerRuntimes) {
    budgets.push_back(transaction::ReviewerRuntimeBudget(r));
  }
  CHECK(budgets == std::vector<uint64_t>{524288, 524288, 524288, 1048576, 1048576});
  for (const char* other : kOthers) CHECK_FALSE(transaction::ParseReviewerRuntime(other));
  CHECK_FALSE(transaction::ParseReviewerRuntime("Claude"));
}

// What status's `next` and `next_reason` print (docs/lifecycle.md, "Next action"; the schema's
// enums in docs/schema/common.v1.schema.json).
TEST_CASE("name tables: next actions and next reasons") {
  CHECK(Names(transaction::kAllNextActions, transaction::NextActionName,
              transaction::ParseNextAction) ==
        std::vector<std::string>{"start", "export", "verdict", "revise", "burn", "select_lineage",
                                 "repair", "none", "abandon", "post"});
  CHECK(Names(transaction::kAllNextReasons, transaction::NextReasonName,
              transaction::ParseNextReason) ==
        std::vector<std::string>{"no_lineage",         "review_due",
                                 "context_exported",   "candidate_changed",
                                 "approved",           "ambiguous",
                                 "several_actionable", "corrupted",
                                 "incomplete",         "waiting_for_author",
                                 "other_worktree",     "target_not_computable",
                                 "fetched_only",       "budget_exceeded",
                                 "objects_missing",    "escalated",
                                 "invalidated",        "decision_required",
                                 "unknown_state",      "clean",
                                 "candidate_burned",   "context_required",
                                 "approve_capped",     "merged",
                                 "post_due",           "reconciliation_prepared",
                                 "review_pending",     "nothing_to_review"});
  for (const char* other : {"", "Post", "post ", "merge", "postdue", "repair\n"}) {
    INFO(other);
    CHECK_FALSE(transaction::ParseNextAction(other).has_value());
    CHECK_FALSE(transaction::ParseNextReason(other).has_value());
  }
}

// The keys of an error's "details" object: sorted by name, the envelope's order.
TEST_CASE("name tables: error detail keys") {
  const std::vector<std::string> names = Names(kAllDetailKeys, DetailKeyName, ParseDetailKey);
  CHECK(names == std::vector<std::string>{"actor",
                                          "against_tree",
                                          "audit_record",
                                          "base_commit",
                                          "base_ref",
                                          "base_tree",
                                          "baselined_at",
                                          "byte_size",
                                          "byte_size_bound",
                                          "candidate_tree",
                                          "command",
                                          "comment_id",
                                          "commit",
                                          "commit_time",
                                          "config",
                                          "context_digest",
                                          "context_unavailable",
                                          "count",
                                          "deadline_ms",
                                          "difference",
                                          "directory",
                                          "exit_code",
                                          "expected_revision",
                                          "fetched_tip",
                                          "file",
                                          "first_parent",
                                          "git_exit",
                                          "gpg.format",
                                          "http_status",
                                          "input",
                                          "json_path",
                                          "key",
                                          "limit",
                                          "local_tip",
                                          "lock",
                                          "max_bytes",
                                          "merge_bases",
                                          "namespace",
                                          "nonce",
                                          "object",
                                          "operation",
                                          "path",
                                          "pending",
                                          "pending_role",
                                          "pending_round",
                                          "pr",
                                          "principal",
                                          "principals",
                                          "program",
                                          "reason",
                                          "ref",
                                          "rejected",
                                          "remote",
                                          "required",
                                          "retry_after",
                                          "revision",
                                          "role",
                                          "rollback",
                                          "round",
                                          "round_revision",
                                          "same_person",
                                          "schema",
                                          "schema_version",
                                          "size",
                                          "skipped",
                                          "source",
                                          "state",
                                          "stderr",
                                          "synchronous",
                                          "target_identity",
                                          "terminal",
                                          "tip",
                                          "tombstone",
                                          "tree",
                                          "verdict"});
  CHECK(std::is_sorted(names.begin(), names.end()));
  for (const char* other : {"", "Reason", "reason ", "gpg_format", "remote_tip", "origin"}) {
    INFO(other);
    CHECK_FALSE(ParseDetailKey(other).has_value());
  }
  Status status(Code::kUsage, "x");
  status.WithDetail(DetailKey::kState, "reviewing").WithDetail(DetailKey::kActor, "ana");
  status.WithRemoteDetail("origin", "abc");
  CHECK(status.details() == std::map<std::string, std::string>{
                                {"actor", "ana"}, {"origin", "abc"}, {"state", "reviewing"}});
  CHECK(*status.detail(DetailKey::kActor) == "ana");
  CHECK(status.detail(DetailKey::kRound) == nullptr);
  Status copy(Code::kCorrupted, "y");
  copy.WithDetail(DetailKey::kState, "old").WithDetailsOf(status, DetailKey::kActor);
  CHECK(copy.details() ==
        std::map<std::string, std::string>{{"origin", "abc"}, {"state", "reviewing"}});
}

// A record's `state`, and the State trailer of a terminal verb's history commit.
TEST_CASE("name tables: review states and terminal states") {
  CHECK(Names(store::kReviewStateNames.values, store::ReviewStateName, store::ParseReviewState) ==
        std::vector<std::string>{"reviewing", "approved", "correction_required", "escalated",
                                 "invalidated", "decision_required"});
  CHECK(Names(store::kTerminalStateNames.values, store::TerminalStateName,
              store::ParseTerminalState) == std::vector<std::string>{"consumed", "retired"});
  for (const char* other : {"", "Approved", "approved ", "consumed\n", "pending"}) {
    INFO(other);
    CHECK_FALSE(store::ParseReviewState(other).has_value());
    CHECK_FALSE(store::ParseTerminalState(other).has_value());
  }
}

// A state name this build does not know (a newer gentle-ai's) is kept as written.
TEST_CASE("state names: a known state and a terminal one and an unknown one as written") {
  const store::StateName approved = store::StateName::FromText("approved");
  CHECK(approved.Is(store::ReviewState::kApproved));
  CHECK(approved == store::StateName(store::ReviewState::kApproved));
  const store::StateName consumed = store::StateName::FromText("consumed");
  CHECK(consumed.Is(store::TerminalState::kConsumed));
  CHECK_FALSE(consumed.state().has_value());
  const store::StateName future = store::StateName::FromText("under_appeal");
  CHECK(future.name() == "under_appeal");
  CHECK_FALSE(future.state().has_value());
  CHECK_FALSE(future.terminal().has_value());
  CHECK(store::AcceptsAbandon(future));
  CHECK_FALSE(store::AcceptsAbandon(approved));
  CHECK(store::AcceptsAbandon(store::ReviewState::kCorrectionRequired));
  CHECK_FALSE(store::AcceptsAbandon(store::ReviewState::kDecisionRequired));
  CHECK(store::StateName().empty());
}

// Verdict files, history trailers and posted comments hold the verdict and role names; `list`
// prints the list states; a review context holds the forge review kinds' names.
TEST_CASE("name tables: verdicts - roles - list states and forge review kinds") {
  CHECK(Names(store::kAllVerdicts, store::VerdictName, store::ParseVerdict) ==
        std::vector<std::string>{"APPROVE", "REQUEST_CHANGES", "NEEDS_DISCUSSION", "FIXED",
                                 "NO_CHANGES"});
  CHECK(Names(store::kReviewerRoleNames.values, store::ReviewerRoleName,
              store::ParseReviewerRole) == std::vector<std::string>{"reviewer", "docs-reviewer"});
  CHECK(
      Names(transaction::kAllListStates, transaction::ListStateName, transaction::ParseListState) ==
      std::vector<std::string>{"live", "incomplete", "consumed", "retired"});
  CHECK(Names(
            forge::kForgeReviewKindNames.values,
            [](forge::ForgeReviewKind kind) { return forge::kForgeReviewKindNames.Name(kind); },
            [](std::string_view name) { return forge::kForgeReviewKindNames.Parse(name); }) ==
        std::vector<std::string>{"APPROVED", "CHANGES_REQUESTED", "COMMENTED", "DISMISSED",
                                 "PENDING"});
  for (const char* other : {"", "approve", "APPROVE ", "Reviewer", "docs_reviewer", "REQUEST"}) {
    INFO(other);
    CHECK_FALSE(store::ParseVerdict(other).has_value());
    CHECK_FALSE(store::ParseReviewerRole(other).has_value());
    CHECK_FALSE(transaction::ParseListState(other).has_value());
  }
}

// A verdict or role is parsed once where its text comes in and keeps the text as written: a
// newer tool's word reads, prints and stores byte for byte, and answers no enumerator.
TEST_CASE("words: verdicts and roles and forge review states as written") {
  const store::VerdictWord approve = store::VerdictWord::FromText("APPROVE");
  CHECK(approve.Is(store::Verdict::kApprove));
  CHECK(approve == store::VerdictWord(store::Verdict::kApprove));
  CHECK(approve.text() == "APPROVE");
  const store::VerdictWord future = store::VerdictWord::FromText("DEFER");
  CHECK(future.text() == "DEFER");
  CHECK_FALSE(future.value().has_value());
  CHECK_FALSE(store::IsCodeVerdict(future.value()));
  CHECK_FALSE(store::IsDocsVerdict(future.value()));
  CHECK(store::IsDocsVerdict(store::Verdict::kFixed));
  CHECK_FALSE(store::IsCodeVerdict(store::Verdict::kFixed));
  CHECK_FALSE(store::VerdictWord::FromText("approve").value().has_value());
  const store::RoleWord docs = store::RoleWord::FromText("docs-reviewer");
  CHECK(docs.Is(store::ReviewerRole::kDocsReviewer));
  CHECK_FALSE(store::RoleWord::FromText("author").value().has_value());
  CHECK(store::RoleWord().empty());

  const forge::ForgeReviewState approved = forge::ForgeReviewState::FromText("APPROVED");
  CHECK(approved.kind() == forge::ForgeReviewKind::kApproved);
  CHECK(approved == forge::ForgeReviewState(forge::ForgeReviewKind::kApproved));
  const forge::ForgeReviewState other = forge::ForgeReviewState::FromText("approved ");
  CHECK(other.kind() == forge::ForgeReviewKind::kOther);
  CHECK(other.text() == "approved ");
  CHECK_FALSE(other == approved);
  CHECK(forge::ForgeReviewState(forge::ForgeReviewKind::kCommented).text() == "COMMENTED");
}

// A history commit's subject names its verb; the chain verification accepts exactly these.
TEST_CASE("name tables: history verbs") {
  CHECK(Names(store::kAllHistoryVerbs, store::HistoryVerbName, store::ParseHistoryVerb) ==
        std::vector<std::string>{"start", "verdict", "invalidate", "burn", "abandon", "sync",
                                 "revise", "co-approve"});
  for (const char* other : {"", "pin", "Start", "burn ", "co_approve", "gentle-ai"}) {
    INFO(other);
    CHECK_FALSE(store::ParseHistoryVerb(other).has_value());
  }
}

// A commit read back keeps its verb as its subject writes it: a legacy pin's "pin" and a newer
// writer's word answer no verb and are not terminal, and print as written.
TEST_CASE("words: history verbs as written") {
  const store::HistoryVerbWord burn = store::HistoryVerbWord::FromText("burn");
  CHECK(burn.Is(store::HistoryVerb::kBurn));
  CHECK(burn == store::HistoryVerbWord(store::HistoryVerb::kBurn));
  CHECK(store::IsTerminalVerb(burn));
  CHECK(store::TerminalStateOf(store::HistoryVerb::kAbandon) == store::TerminalState::kRetired);
  CHECK_FALSE(store::IsTerminalVerb(store::HistoryVerb::kCoApprove));
  for (const char* other : {"pin", "rebase", "Burn", "abandon\t"}) {
    INFO(other);
    const store::HistoryVerbWord word = store::HistoryVerbWord::FromText(other);
    CHECK(word.text() == other);
    CHECK_FALSE(word.value().has_value());
    CHECK_FALSE(store::IsTerminalVerb(word));
    CHECK_FALSE(store::TerminalStateOf(word).has_value());
  }
  CHECK(store::HistoryVerbWord().empty());
  CHECK_FALSE(store::IsTerminalVerb(store::HistoryVerbWord()));
}

// A post intent's `event` column and the PR review request hold the forges' review events.
TEST_CASE("name tables: review events") {
  CHECK(Names(watch::kAllReviewEvents, watch::ReviewEventName, watch::ParseReviewEvent) ==
        std::vector<std::string>{"APPROVE", "APPROVED", "REQUEST_CHANGES", "COMMENT"});
  for (const char* other : {"", "approve", "COMMENTED", "CHANGES_REQUESTED", "COMMENT "}) {
    INFO(other);
    CHECK_FALSE(watch::ParseReviewEvent(other).has_value());
  }
  using store::Forge;
  using store::Verdict;
  CHECK(watch::ReviewEventOf(Forge::kGithub, Verdict::kApprove) == watch::ReviewEvent::kApprove);
  CHECK(watch::ReviewEventOf(Forge::kGitea, Verdict::kApprove) == watch::ReviewEvent::kApproved);
  for (Forge forge : {Forge::kGithub, Forge::kGitea}) {
    CHECK(watch::ReviewEventOf(forge, Verdict::kRequestChanges) ==
          watch::ReviewEvent::kRequestChanges);
    CHECK(watch::ReviewEventOf(forge, Verdict::kNeedsDiscussion) == watch::ReviewEvent::kComment);
  }
  // The row's word as written: empty is a comment's, any other text keeps its bytes.
  CHECK(watch::ReviewEventWord().empty());
  CHECK(watch::ReviewEventWord::FromText("APPROVED").Is(watch::ReviewEvent::kApproved));
  const watch::ReviewEventWord future = watch::ReviewEventWord::FromText("SUBMIT ");
  CHECK(future.text() == "SUBMIT ");
  CHECK_FALSE(future.value().has_value());
}

// A review context comment's `channel` member.
TEST_CASE("name tables: comment channels") {
  CHECK(Names(forge::kAllCommentChannels, forge::CommentChannelName, forge::ParseCommentChannel) ==
        std::vector<std::string>{"inline", "thread"});
  for (const char* other : {"", "Inline", "thread ", "review", "issue"}) {
    INFO(other);
    CHECK_FALSE(forge::ParseCommentChannel(other).has_value());
  }
}

// Every vocabulary's names are a NameTable (store/name_table.h) and its parse is the table's:
// the shapes the hand-written copies had - a switch or a ternary returning names, a loop or an
// if chain comparing a name to get the enumerator, a hand-listed kAll... array - fail here, with
// the file and line. Each hit is "file:line: shape".
std::vector<std::string> HandWrittenTables(const std::string& root) {
  static const std::regex kCase(R"(^\s*case \w+::k\w+:\s*$)");
  static const std::regex kReturnName(R"(^\s*return "[A-Za-z][A-Za-z0-9_.-]*";\s*$)");
  static const std::vector<std::pair<std::regex, std::string>> kLineShapes = {
      {std::regex(R"(== (\w+::)+k\w+ \? "[A-Za-z][A-Za-z0-9_.-]*" : "[A-Za-z][A-Za-z0-9_.-]*")"),
       "a ternary naming an enumerator"},
      {std::regex(R"(if \(\w+Name\(\w+\) == \w+\) return \w+;)"), "a parse loop over names"},
      {std::regex(R"(== \w+Name\(\w+::k\w+\)\) return \w+::k\w+;)"), "an if chain over names"},
      {std::regex(R"(if \(\w+ == "[A-Za-z][A-Za-z0-9_.-]*"\) return \w+::k\w+;)"),
       "an if chain over literal names"},
      {std::regex(R"(constexpr \w+ kAll\w+\[\] = \{)"), "a hand-listed kAll array"},
  };
  std::vector<std::string> hits;
  for (const char* dir : {"store", "export", "transaction", "forge", "watch", "cli", "loop"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root + "/" + dir)) {
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() || (ext != ".h" && ext != ".cc")) continue;
      const std::string name = entry.path().lexically_relative(root).string();
      std::istringstream text(testing::ReadFile(entry.path().string()));
      std::string line, previous;
      int number = 0, named_cases = 0;
      while (std::getline(text, line)) {
        ++number;
        if (std::regex_search(previous, kCase) && std::regex_search(line, kReturnName)) {
          // One case returning a word may be anything; a second in the file is a name table.
          if (++named_cases == 2)
            hits.push_back(name + ":" + std::to_string(number) + ": a switch naming enumerators");
        }
        for (const auto& [shape, what] : kLineShapes) {
          if (std::regex_search(line, shape)) {
            hits.push_back(name + ":" + std::to_string(number) + ": " + what);
          }
        }
        previous = line;
      }
    }
  }
  std::sort(hits.begin(), hits.end());
  return hits;
}

TEST_CASE("name tables: no vocabulary hand-writes its names or its parse") {
  const std::vector<std::string> hits = HandWrittenTables(GENTLE_SOURCE_DIR);
  CHECK(hits == std::vector<std::string>{});
}

}  // namespace
}  // namespace gentle
