// review revise (docs/loop.md): the next round of a lineage after REQUEST_CHANGES. The
// oracle for the new round's trees is git itself: the author's fix committed with `git commit`
// has exactly the candidate tree revise must capture, and the parent commit the base tree.
#include "transaction/revise.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "store/record.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

std::vector<std::string> Verdict(const std::string& lineage, const std::string& verdict,
                                 const std::string& body = "body text") {
  return {"verdict", "--lineage", lineage,    "--verdict", verdict, "--actor",
          "ana",     "--role",    "reviewer", "--body",    body};
}

std::string Trim(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// A lineage in correction_required: StartNew (change-1.txt, untracked) then REQUEST_CHANGES.
std::string ChangesRequested(LifecycleRepo& repo) {
  const std::string lineage = repo.StartNew()["lineage"];
  repo.ReviewOk(Verdict(lineage, "REQUEST_CHANGES", "round one findings"));
  return lineage;
}

TEST_CASE("revise moves current_snapshot to the fixed candidate - initial_snapshot stays") {
  LifecycleRepo repo;
  const std::string lineage = ChangesRequested(repo);
  const Json before = repo.RecordState(lineage);
  const std::string head_tree = Trim(repo.GitOk({"rev-parse", "HEAD^{tree}"}));
  repo.Write("a.txt", "fixed\n");

  Json revised = repo.ReviewOk({"revise", "--lineage", lineage});
  CHECK(revised["schema"] == "gentle-ai.review-revise/v1");
  CHECK(revised["lineage"] == lineage);
  CHECK(revised["previous_state"] == "correction_required");
  CHECK(revised["state"] == "reviewing");
  CHECK(revised["round"] == 2);
  CHECK(revised["changed_path_count"] == 2);

  const std::string file = ReadFile(repo.record_path(lineage));
  const Json state = Json::parse(file)["state"];
  CHECK(Json::parse(file)["revision"] == revised["revision"]);
  CHECK(state["generation"] == 2);
  CHECK(state["state"] == "reviewing");
  CHECK(state["initial_snapshot"] == before["initial_snapshot"]);
  CHECK(state["genesis_paths"] == before["genesis_paths"]);
  CHECK(state["initial_atomic_start"] == before["initial_atomic_start"]);
  const Json& current = state["current_snapshot"];
  CHECK(current["identity"] == revised["target_identity"]);
  CHECK(current["paths"] == Json::array({"a.txt", "change-1.txt"}));
  CHECK(current["base_tree"] == head_tree);
  // The oracle: the author's fix as git commits it.
  repo.GitOk({"add", "a.txt", "change-1.txt"});
  repo.GitOk({"commit", "-q", "-m", "fix"});
  CHECK(current["candidate_tree"] == Trim(repo.GitOk({"rev-parse", "HEAD^{tree}"})));
  CHECK(current["candidate_tree"] != before["current_snapshot"]["candidate_tree"]);
  auto verified = store::ParseRecordFile(file, lineage);
  REQUIRE(verified.ok());
  CHECK(store::ComputeSnapshotIdentity(verified->current_snapshot) == current["identity"]);

  // The history: a revise commit holding the new round's trees and the record's exact bytes.
  const std::string ref = ReviewRef(lineage);
  CHECK(repo.GitOk({"log", "--format=%s", ref}) ==
        "revise " + lineage + "\nverdict " + lineage + "\nstart " + lineage + "\n");
  CHECK(Trim(repo.GitOk({"rev-parse", ref + ":candidate"})) == current["candidate_tree"]);
  CHECK(Trim(repo.GitOk({"rev-parse", ref + ":base"})) == current["base_tree"]);
  CHECK(repo.GitOk({"show", ref + ":review-state.json"}) == file);
  CHECK(Trim(repo.GitOk({"log", "-1", "--format=%(trailers:key=Round,valueonly)", ref})) == "2");
  CHECK(Trim(repo.GitOk({"log", "-1", "--format=%(trailers:key=State,valueonly)", ref})) ==
        "reviewing");
  ExpectFsckClean(repo);
}

TEST_CASE("a revised round takes verdicts again - each round keeps its own verdict") {
  LifecycleRepo repo;
  const std::string lineage = ChangesRequested(repo);
  repo.Write("a.txt", "fixed\n");
  repo.ReviewOk({"revise", "--lineage", lineage});
  RunResult status = repo.Review({"status", "--lineage", lineage});
  REQUIRE(status.exit_code == 0);
  CHECK(status.Json()["lineages"][0]["applicability"] == "current_target");
  CHECK(status.Json()["lineages"][0]["state"] == "reviewing");

  Json approved = repo.ReviewOk(Verdict(lineage, "APPROVE", "round two is fine"));
  CHECK(approved["previous_state"] == "reviewing");
  CHECK(approved["state"] == "approved");
  const std::string ref = ReviewRef(lineage);
  CHECK(repo.GitOk({"ls-tree", "--name-only", ref + ":verdicts"}) == "1.md\n2.md\n");

  RunResult round1 = repo.Review({"comment", "--lineage", lineage, "--round", "1"}, {}, false);
  REQUIRE(round1.exit_code == 0);
  CHECK(round1.out.find("round one findings\n\n### Verdict: REQUEST_CHANGES\n") !=
        std::string::npos);
  CHECK(round1.out.find(" round=1 ") != std::string::npos);
  RunResult round2 = repo.Review({"comment", "--lineage", lineage}, {}, false);
  REQUIRE(round2.exit_code == 0);
  CHECK(round2.out.find("round two is fine\n\n### Verdict: APPROVE\n") != std::string::npos);
  CHECK(round2.out.find(" round=2 revision=" + approved["revision"].get<std::string>()) !=
        std::string::npos);

  // The approval of round two burns, keyed by round two's identity: the same candidate is then
  // consumed for a new lineage.
  repo.ReviewOk({"burn", "--lineage", lineage, "--token", approved["token"], "--expected-revision",
                 approved["revision"]});
  RunResult again = repo.Review({"start", "--untracked", "change-1.txt"});
  CHECK(again.exit_code == 4);
  CHECK(again.Json()["error"]["code"] == "consumed");
  ExpectFsckClean(repo);
}

TEST_CASE("start of the revised candidate answers with the revised lineage - no second claim") {
  LifecycleRepo repo;
  const std::string lineage = ChangesRequested(repo);
  repo.Write("a.txt", "fixed\n");
  Json revised = repo.ReviewOk({"revise", "--lineage", lineage});
  auto before = repo.StoreBytes();
  Json again = repo.ReviewOk({"start", "--untracked", "change-1.txt"});
  CHECK(again["lineage"] == lineage);
  CHECK(again["created"] == false);
  CHECK(again["revision"] == revised["revision"]);
  CHECK(again["target_identity"] == revised["target_identity"]);
  CHECK(repo.StoreBytes() == before);
  RunResult status = repo.Review({"status"});
  REQUIRE(status.exit_code == 0);
  REQUIRE(status.Json()["lineages"].size() == 1);
  CHECK(status.Json()["lineages"][0]["applicability"] == "current_target");
  // The first round's candidate names the lineage (its id is content-addressed from the initial
  // candidate): start answers with it as it is now, in round two, and writes nothing.
  repo.Write("a.txt", "one\n");
  Json first = repo.ReviewOk({"start", "--untracked", "change-1.txt"});
  CHECK(first["lineage"] == lineage);
  CHECK(first["created"] == false);
  CHECK(first["revision"] == revised["revision"]);
  CHECK(repo.StoreBytes() == before);
}

TEST_CASE("revise is refused outside correction_required - nothing changes") {
  LifecycleRepo repo;
  const std::string reviewing = repo.StartNew()["lineage"];
  repo.ExpectRefused({"revise", "--lineage", reviewing}, "wrong_state", 6);
  auto approved = repo.StartApproved();
  repo.ExpectRefused({"revise", "--lineage", approved.lineage}, "wrong_state", 6);
  const std::string escalated = repo.StartNew()["lineage"];
  repo.ReviewOk(Verdict(escalated, "NEEDS_DISCUSSION"));
  repo.ExpectRefused({"revise", "--lineage", escalated}, "wrong_state", 6);
  const std::string invalidated = repo.StartNew()["lineage"];
  repo.ReviewOk({"invalidate", "--lineage", invalidated, "--reason", "r", "--actor", "ops"});
  repo.ExpectRefused({"revise", "--lineage", invalidated}, "wrong_state", 6);
  // A revised round is not pristine: invalidate stays refused.
  const std::string revised = ChangesRequested(repo);
  repo.Write("a.txt", "fixed\n");
  repo.ReviewOk({"revise", "--lineage", revised});
  repo.ExpectRefused({"invalidate", "--lineage", revised, "--reason", "r", "--actor", "ops"},
                     "wrong_state", 6);
  repo.ExpectRefused({"revise", "--lineage", revised}, "wrong_state", 6);
}

TEST_CASE("revise refuses an unchanged or empty candidate - and bad input") {
  LifecycleRepo repo;
  const std::string lineage = ChangesRequested(repo);
  repo.ExpectRefused({"revise", "--lineage", lineage}, "usage", 2);
  RunResult same = repo.Review({"revise", "--lineage", lineage});
  CHECK(same.Json()["error"]["message"] ==
        "the live candidate is the one round 1 already reviews: change it before revise");
  // An intended untracked file the fix deleted: the lineage's selector cannot be captured.
  std::filesystem::rename(repo.root() + "/change-1.txt", repo.root() + "/kept.txt");
  repo.ExpectRefused({"revise", "--lineage", lineage}, "usage", 2);
  CHECK(repo.Review({"revise", "--lineage", lineage}).Json()["error"]["message"] ==
        "untracked path does not exist: change-1.txt");
  std::filesystem::rename(repo.root() + "/kept.txt", repo.root() + "/change-1.txt");
  // A fix that reverts everything leaves nothing to review.
  repo.Write("a.txt", "edited\n");
  const std::string tracked = repo.ReviewOk({"start"})["lineage"];
  repo.ReviewOk(Verdict(tracked, "REQUEST_CHANGES"));
  repo.GitOk({"checkout", "--", "a.txt"});
  repo.ExpectRefused({"revise", "--lineage", tracked}, "usage", 2);
  CHECK(repo.Review({"revise", "--lineage", tracked}).Json()["error"]["message"] ==
        "nothing to review: the candidate has no changed paths");
  repo.ExpectRefused({"revise", "--lineage", "review-0000000000000000"}, "not_found", 3);
  repo.ExpectRefused({"revise", "--lineage", "../x"}, "usage", 2);
  repo.ExpectRefused(
      {"revise", "--lineage", lineage, "--expected-revision", "sha256:" + std::string(64, '0')},
      "conflict", 11);
  repo.Write("a.txt", "fixed\n");
  const std::string revision = repo.RecordState(lineage).dump();  // the record before
  Json revised = repo.ReviewOk({"revise", "--lineage", lineage, "--expected-revision",
                                Json::parse(ReadFile(repo.record_path(lineage)))["revision"]});
  CHECK(revised["round"] == 2);
  CHECK(revised["changed_path_count"] == 2);
  CHECK(repo.RecordState(lineage).dump() != revision);
}

TEST_CASE("revise is refused in another worktree of the clone") {
  LifecycleRepo repo;
  const std::string lineage = ChangesRequested(repo);
  const std::string other = repo.root() + "-other";
  repo.GitOk({"worktree", "add", "-q", other});
  WriteFile(other + "/a.txt", "fixed elsewhere\n");
  auto before = repo.StoreBytes();
  RunResult run = GentleAi({"review", "revise", "--lineage", lineage, "--json"}, other);
  CHECK(run.exit_code == 2);
  CHECK(run.Json()["error"]["code"] == "usage");
  CHECK(repo.StoreBytes() == before);
  std::filesystem::remove_all(other);
}

TEST_CASE("revise to a candidate whose approval was burned is consumed") {
  LifecycleRepo repo;
  const std::string lineage = ChangesRequested(repo);
  repo.Write("a.txt", "fixed\n");
  // Another lineage of the same worktree approves and burns exactly the fixed candidate.
  Json other = repo.ReviewOk({"start", "--untracked", "change-1.txt"});
  REQUIRE(other["lineage"] != lineage);
  Json approved = repo.ReviewOk(Verdict(other["lineage"], "APPROVE"));
  repo.ReviewOk({"burn", "--lineage", other["lineage"], "--token", approved["token"],
                 "--expected-revision", approved["revision"]});
  repo.ExpectRefused({"revise", "--lineage", lineage}, "consumed", 4);
  CHECK(repo.RecordState(lineage)["state"] == "correction_required");
}

TEST_CASE("revise re-resolves a commit-range selector - the new round is the moved head") {
  LifecycleRepo repo;
  repo.GitOk({"checkout", "-q", "-b", "feature"});
  repo.Write("a.txt", "feature one\n");
  repo.GitOk({"commit", "-q", "-am", "one"});
  const std::string base = Trim(repo.GitOk({"rev-parse", "feature~1"}));
  Json started =
      repo.ReviewOk({"start", "--kind", "commit-range", "--base", base, "--head", "feature"});
  const std::string lineage = started["lineage"];
  repo.ReviewOk(Verdict(lineage, "REQUEST_CHANGES"));
  repo.Write("a.txt", "feature two\n");
  repo.GitOk({"commit", "-q", "-am", "two"});
  Json revised = repo.ReviewOk({"revise", "--lineage", lineage});
  CHECK(revised["round"] == 2);
  const Json state = repo.RecordState(lineage);
  CHECK(state["current_snapshot"]["kind"] == "commit-range");
  CHECK(state["current_snapshot"]["base_tree"] ==
        Trim(repo.GitOk({"rev-parse", base + "^{tree}"})));
  CHECK(state["current_snapshot"]["candidate_tree"] ==
        Trim(repo.GitOk({"rev-parse", "feature^{tree}"})));
  CHECK(state["initial_snapshot"]["candidate_tree"] ==
        Trim(repo.GitOk({"rev-parse", "feature~1^{tree}"})));
  ExpectFsckClean(repo);
}

TEST_CASE("the library call answers as the CLI does") {
  LifecycleRepo repo;
  const std::string lineage = ChangesRequested(repo);
  auto same = transaction::Revise({repo.root(), lineage, std::nullopt, {}, std::nullopt});
  REQUIRE_FALSE(same.ok());
  CHECK(same.status().code() == Code::kUsage);
  auto bad = transaction::Revise({repo.root(), "Review-X", std::nullopt, {}, std::nullopt});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().code() == Code::kUsage);
  repo.Write("a.txt", "fixed\n");
  auto revised = transaction::Revise({repo.root(), lineage, std::nullopt, {}, std::nullopt});
  REQUIRE(revised.ok());
  CHECK(revised->round == 2);
  CHECK(revised->previous_state.name() == "correction_required");
  CHECK(revised->state.name() == "reviewing");
  CHECK(repo.RecordState(lineage)["current_snapshot"]["identity"] == revised->target_identity);
  ExpectFsckClean(repo);
}

}  // namespace
}  // namespace gentle::testing
