// next_reason and status's selector flags (docs/lifecycle.md "Next action"; docs/loop.md,
// "Following next"): the reason table through the pure derivation, a sent-back
// lineage of another worktree that is not revised from here, and status answering for the
// candidate start's selector flags name (start when no lineage holds it, its lineage's next when
// one does), with status still writing nothing.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/review_state.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "transaction/next_action.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;
using transaction::Applicability;
using transaction::EntryFacts;
using transaction::Fit;
using transaction::LiveStart;
using transaction::UnrelatedReason;

// A record's state name as EntryFacts holds it: nullopt for a name this build does not know.
std::optional<store::ReviewState> StateOf(std::string_view name) {
  return store::ParseReviewState(name);
}

std::string Reason(const EntryFacts& facts) {
  const transaction::Next next = transaction::EntryNext(facts);
  return std::string(transaction::NextActionName(next.action)) + "/" +
         std::string(transaction::NextReasonName(next.reason));
}

Json StatusIn(const std::string& cwd, const std::vector<std::string>& flags = {}) {
  std::vector<std::string> args = {"review", "status", "--json"};
  args.insert(args.end(), flags.begin(), flags.end());
  RunResult r = GentleAi(args, cwd);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  return r.Json();
}

Json EntryOf(const Json& status, const std::string& lineage) {
  for (const Json& entry : status["lineages"]) {
    if (entry["lineage"] == lineage) return entry;
  }
  FAIL("no status entry for " << lineage << " in " << status.dump());
  return Json();
}

const std::vector<std::string> kPr = {"--kind", "commit-range", "--base", "main", "--head", "pr"};

}  // namespace

TEST_CASE("next reason: every row of the table names its reason") {
  const auto cur = Applicability::kCurrentTarget;
  const auto unrel = Applicability::kUnrelated;
  const auto moved = UnrelatedReason::kTargetMoved;
  CHECK(Reason({StateOf(""), Applicability::kCorrupted}) == "abandon/corrupted");
  CHECK(Reason({StateOf(""), Applicability::kIncomplete}) == "repair/incomplete");
  CHECK(Reason({StateOf("reviewing"), Applicability::kAmbiguous}) == "select_lineage/ambiguous");
  CHECK(Reason({StateOf("reviewing"), cur, {}, true}) == "none/fetched_only");
  CHECK(Reason({StateOf("reviewing"), cur}) == "export/review_due");
  CHECK(Reason({StateOf("reviewing"), cur, {}, false, false, Fit::kOverBudget}) ==
        "none/budget_exceeded");
  CHECK(Reason({StateOf("reviewing"), cur, {}, false, false, Fit::kObjectsMissing}) ==
        "none/objects_missing");
  CHECK(Reason({StateOf("correction_required"), unrel, moved}) == "revise/candidate_changed");
  CHECK(Reason({StateOf("correction_required"), unrel, moved, false, true}) ==
        "none/other_worktree");
  CHECK(Reason({StateOf("correction_required"), unrel, moved, false, false, Fit::kFits,
                Fit::kOverBudget}) == "none/budget_exceeded");
  CHECK(Reason({StateOf("correction_required"), cur}) == "none/waiting_for_author");
  CHECK(Reason({StateOf("correction_required"), unrel, UnrelatedReason::kNotComputable}) ==
        "none/target_not_computable");
  CHECK(Reason({StateOf("approved"), cur}) == "burn/approved");
  CHECK(Reason({StateOf("escalated"), cur}) == "none/escalated");
  CHECK(Reason({StateOf("invalidated"), cur}) == "none/invalidated");
  CHECK(Reason({StateOf("decision_required"), cur}) == "none/decision_required");
  CHECK(Reason({StateOf("validating"), cur}) == "none/unknown_state");
  // The APPROVE cap (transaction/context_cap.h): a capped round is exported and then given any
  // verdict but APPROVE; a round opened under gentle-ai.requireContext is bound with --context.
  EntryFacts capped = {StateOf("reviewing"), cur};
  capped.approve_capped = true;
  CHECK(Reason(capped) == "export/approve_capped");
  capped.frozen = Fit::kOverBudget;
  CHECK(Reason(capped) == "none/budget_exceeded");
  EntryFacts required = {StateOf("correction_required"), unrel, moved};
  required.require_context = true;
  CHECK(Reason(required) == "revise/context_required");
  required.live = Fit::kOverBudget;
  CHECK(Reason(required) == "none/budget_exceeded");
  required = {StateOf("correction_required"), cur};
  required.require_context = true;
  CHECK(Reason(required) == "none/waiting_for_author");
  capped = {StateOf("approved"), cur};
  capped.approve_capped = true;
  CHECK(Reason(capped) == "burn/approved");

  // An approved lineage whose candidate is committed on the branch, once it is not the live
  // target; a round whose newest verdict is not posted yet, whatever its state.
  EntryFacts merged = {StateOf("approved"), unrel, moved};
  merged.merged = true;
  CHECK(Reason(merged) == "burn/merged");
  merged.applicability = cur;
  CHECK(Reason(merged) == "burn/approved");
  for (const char* state : {"reviewing", "correction_required", "approved", "escalated"}) {
    EntryFacts due = {StateOf(state), cur};
    due.post_due = true;
    CHECK(Reason(due) == "post/post_due");
    due.fetched_only = true;
    CHECK(Reason(due) == "none/fetched_only");
  }

  auto envelope = [](const std::vector<EntryFacts>& entries, LiveStart live) {
    const transaction::Next next = transaction::EnvelopeNext(entries, [live] { return live; });
    return std::string(transaction::NextActionName(next.action)) + "/" +
           std::string(transaction::NextReasonName(next.reason));
  };
  CHECK(envelope({}, LiveStart::kStartable) == "start/no_lineage");
  CHECK(envelope({}, LiveStart::kClean) == "none/clean");
  CHECK(envelope({}, LiveStart::kBurned) == "none/candidate_burned");
  // The burn was the asked PR's own lineage's: the PR merged, until its head moves.
  CHECK(envelope({}, LiveStart::kPrBurned) == "none/merged");
  CHECK(envelope({}, LiveStart::kUnavailable) == "none/target_not_computable");
  CHECK(envelope({}, LiveStart::kOverBudget) == "none/budget_exceeded");
  // A sent-back lineage of another worktree is not actionable here.
  CHECK(envelope({{StateOf("correction_required"), unrel, moved, false, true}},
                 LiveStart::kStartable) == "start/no_lineage");
  CHECK(envelope({{StateOf("reviewing"), cur}, {StateOf("approved"), cur}},
                 LiveStart::kStartable) == "select_lineage/several_actionable");
  // The entry the top-level next is about: never an unrelated one while one is actionable.
  auto picked = [](const std::vector<EntryFacts>& entries) {
    const transaction::Picked p =
        transaction::PickNext(entries, [] { return LiveStart::kStartable; });
    return std::string(transaction::NextActionName(p.next.action)) + "/" +
           std::string(transaction::NextReasonName(p.next.reason)) + "@" +
           (p.entry ? std::to_string(*p.entry) : std::string("null"));
  };
  CHECK(picked({{StateOf("reviewing"), unrel, moved}, {StateOf("reviewing"), cur}}) ==
        "export/review_due@1");
  CHECK(picked({{StateOf("reviewing"), unrel, moved}}) == "start/no_lineage@null");
  EntryFacts merged_moved = {StateOf("approved"), unrel, moved};
  merged_moved.merged = true;
  CHECK(picked({{StateOf("reviewing"), unrel, moved}, merged_moved}) == "burn/merged@1");
  merged_moved.foreign = true;  // another worktree's: not this worktree's author action
  CHECK(picked({merged_moved}) == "start/no_lineage@null");
  CHECK(picked({{StateOf("reviewing"), cur}, {StateOf(""), Applicability::kCorrupted}}) ==
        "abandon/corrupted@1");
  CHECK(picked({{StateOf("reviewing"), cur}, {StateOf("approved"), cur}}) ==
        "select_lineage/several_actionable@0");
  const transaction::Next after =
      transaction::AfterExport(transaction::EntryNext({StateOf("reviewing"), cur}));
  CHECK(transaction::NextReasonName(after.reason) == "context_exported");
  EntryFacts capped_round = {StateOf("reviewing"), cur};
  capped_round.approve_capped = true;
  const transaction::Next capped_after =
      transaction::AfterExport(transaction::EntryNext(capped_round));
  CHECK(transaction::NextActionName(capped_after.action) == "verdict");
  CHECK(transaction::NextReasonName(capped_after.reason) == "approve_capped");
  const transaction::Next start = transaction::EnvelopeNext(
      {}, [] { return LiveStart::kStartable; }, /*require_context=*/true);
  CHECK(transaction::NextReasonName(start.reason) == "context_required");
  CHECK(transaction::NextReasonName(transaction::EnvelopeNext(
                                        {}, [] { return LiveStart::kClean; }, true)
                                        .reason) == "clean");
}

TEST_CASE("next reason: a sent-back lineage of another worktree is none - other_worktree") {
  LifecycleRepo repo;
  const std::string linked = repo.root() + "/../linked";
  repo.GitOk({"worktree", "add", "-q", linked, "-b", "linked"});
  repo.Write("a.txt", "sent back here\n");
  const std::string lineage = repo.ReviewOk({"start"})["lineage"];
  repo.ReviewOk({"verdict", "--lineage", lineage, "--verdict", "REQUEST_CHANGES", "--actor", "ana",
                 "--role", "reviewer", "--body", "Not yet.\n"});
  // The linked worktree holds another candidate: the lineage's live target moved, seen from there.
  WriteFile(linked + "/a.txt", "another change in the linked worktree\n");
  const auto before = HashTree(repo.common_dir());
  const Json status = StatusIn(linked);
  CHECK(HashTree(repo.common_dir()) == before);
  const Json entry = EntryOf(status, lineage);
  CHECK(entry["state"] == "correction_required");
  CHECK(entry["next"] == "none");
  CHECK(entry["next_reason"] == "other_worktree");
  CHECK(status["next"] == "start");
  CHECK(status["next_reason"] == "no_lineage");
  const Json alone = StatusIn(linked, {"--lineage", lineage});
  CHECK(alone["next"] == "none");
  CHECK(alone["next_reason"] == "other_worktree");
  // Where it was started, the author's change makes it revisable.
  repo.Write("a.txt", "sent back here, and fixed\n");
  const Json home = StatusIn(repo.root());
  CHECK(EntryOf(home, lineage)["next"] == "revise");
  CHECK(EntryOf(home, lineage)["next_reason"] == "candidate_changed");
  CHECK(home["next_reason"] == "candidate_changed");
}

TEST_CASE("next reason: status takes start's selector flags and answers for that candidate") {
  LifecycleRepo repo;
  repo.GitOk({"checkout", "-q", "-b", "pr"});
  repo.Write("feature.txt", "a feature\n");
  repo.GitOk({"add", "feature.txt"});
  repo.GitOk({"commit", "-q", "-m", "feature"});
  repo.GitOk({"checkout", "-q", "main"});
  // A lineage of the default selector, in the worktree, is not this candidate's.
  repo.Write("a.txt", "a workspace change\n");
  const std::string workspace = repo.ReviewOk({"start"})["lineage"];

  auto before = HashTree(repo.common_dir());
  Json status = StatusIn(repo.root(), kPr);
  CHECK(HashTree(repo.common_dir()) == before);
  CHECK(status["lineages"].empty());
  CHECK(status["next"] == "start");
  CHECK(status["next_reason"] == "no_lineage");
  // Without the flags, the worktree's own lineage is what status answers for (the author's: it
  // waits on its reviewer).
  const Json plain = StatusIn(repo.root());
  REQUIRE(plain["lineages"].size() == 1);
  CHECK(plain["lineages"][0]["lineage"] == workspace);
  CHECK(plain["next"] == "none");
  CHECK(plain["next_reason"] == "review_pending");

  std::vector<std::string> start = {"start"};
  start.insert(start.end(), kPr.begin(), kPr.end());
  const std::string pr = repo.ReviewOk(start)["lineage"];
  status = StatusIn(repo.root(), kPr);
  REQUIRE(status["lineages"].size() == 1);
  CHECK(status["lineages"][0]["lineage"] == pr);
  CHECK(status["lineages"][0]["next_reason"] == "review_pending");
  CHECK(status["next"] == "none");
  CHECK(status["next_reason"] == "review_pending");
  std::vector<std::string> reviewer = kPr;
  reviewer.insert(reviewer.end(), {"--role", "reviewer"});
  status = StatusIn(repo.root(), reviewer);
  REQUIRE(status["lineages"].size() == 1);
  CHECK(status["lineages"][0]["next_reason"] == "review_due");
  CHECK(status["next"] == "export");
  CHECK(status["next_reason"] == "review_due");
  CHECK(status["next_lineage"] == pr);

  // Sent back, then pushed to: the lineage started with these flags is revised, not restarted.
  repo.ReviewOk({"verdict", "--lineage", pr, "--verdict", "REQUEST_CHANGES", "--actor", "ana",
                 "--role", "reviewer", "--body", "Not yet.\n"});
  CHECK(StatusIn(repo.root(), kPr)["next_reason"] == "waiting_for_author");
  repo.GitOk({"checkout", "-q", "pr"});
  repo.Write("feature.txt", "a feature, fixed\n");
  repo.GitOk({"commit", "-q", "-am", "fix"});
  repo.GitOk({"checkout", "-q", "main"});
  status = StatusIn(repo.root(), kPr);
  CHECK(status["next"] == "revise");
  CHECK(status["next_reason"] == "candidate_changed");
  CHECK(EntryOf(status, pr)["next"] == "revise");
  for (const Json& entry : status["lineages"]) CHECK(entry["lineage"] != workspace);

  // The other selector flags, and the refusals start would give.
  repo.Write("new.txt", "new\n");
  status = StatusIn(repo.root(), {"--untracked", "new.txt"});
  CHECK(status["next"] == "start");
  status = StatusIn(repo.root(), {"--staged"});
  CHECK(status["next"] == "none");
  CHECK(status["next_reason"] == "clean");
  RunResult r = repo.Review({"status", "--lineage", pr, "--kind", "commit-range"});
  CHECK(r.exit_code == 2);
  CHECK(r.Json()["error"]["code"] == "usage");
  r = repo.Review({"status", "--kind", "commit-range", "--base", "main", "--head", "nope"});
  CHECK(r.exit_code == 2);
  CHECK(r.Json()["error"]["code"] == "usage");
}

TEST_CASE("next reason: status's help lists start's selector flags") {
  for (const char* verb : {"start", "status"}) {
    RunResult r = GentleAi({"review", verb, "--help"}, ".");
    INFO(verb << ": " << r.out);
    REQUIRE(r.exit_code == 0);
    for (const char* flag : {"--kind", "--base", "--head", "--staged", "--untracked"}) {
      CHECK(r.out.find(flag) != std::string::npos);
    }
  }
}

}  // namespace gentle::testing
