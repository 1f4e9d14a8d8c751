// Concurrent writers and sibling worktrees: compare-and-swap under the writer lock loses no
// update, and a burn from a sibling worktree keys its tombstone by the lineage's own worktree.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "store/digests.h"
#include "store/record.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

// Starts every command at once (one process each), then waits for all; returns exit codes.
std::vector<int> RunConcurrently(const std::vector<std::vector<std::string>>& commands) {
  std::vector<pid_t> pids;
  for (const auto& args : commands) {
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {  // no Catch macros in the child
      _exit(GentleAi(args, "", {{"GENTLE_LOCK_TIMEOUT_MS", "20000"}}).exit_code);
    }
    pids.push_back(pid);
  }
  std::vector<int> codes;
  for (pid_t pid : pids) {
    int status = 0;
    waitpid(pid, &status, 0);
    codes.push_back(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  return codes;
}

TEST_CASE("concurrency: 8 writers racing on one revision: exactly one wins - the rest conflict") {
  LifecycleRepo repo;
  Json started = repo.StartNew();
  const std::string lineage = started["lineage"];
  std::vector<std::vector<std::string>> commands;
  for (int i = 0; i < 8; ++i) {
    commands.push_back({"review", "verdict", "--cwd", repo.root(), "--lineage", lineage,
                        "--verdict", i % 2 ? "APPROVE" : "REQUEST_CHANGES", "--actor",
                        "agent-" + std::to_string(i), "--role", "reviewer", "--body", "b",
                        "--expected-revision", started["revision"], "--json"});
  }
  std::vector<int> codes = RunConcurrently(commands);
  CHECK(std::count(codes.begin(), codes.end(), 0) == 1);
  CHECK(std::count(codes.begin(), codes.end(), 11) == 7);
  Json state =
      Json::parse(ReadFile(repo.store_root() + "/v2/" + lineage + "/review-state.json"))["state"];
  CHECK(state["state"] != "reviewing");
  // Exactly one verdict reached the history.
  CHECK(repo.Git({"log", "--format=%s", "refs/gentle-ai/reviews/" + lineage}).out ==
        "verdict " + lineage + "\nstart " + lineage + "\n");
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

TEST_CASE("concurrency: 8 writers on 8 lineages: no update is lost") {
  LifecycleRepo repo;
  std::vector<std::string> lineages;
  for (int i = 0; i < 8; ++i) lineages.push_back(repo.StartNew()["lineage"]);
  std::vector<std::vector<std::string>> commands;
  for (const std::string& lineage : lineages) {
    commands.push_back({"review", "verdict", "--cwd", repo.root(), "--lineage", lineage,
                        "--verdict", "NEEDS_DISCUSSION", "--actor", "a", "--role", "reviewer",
                        "--body", "b"});
  }
  std::vector<int> codes = RunConcurrently(commands);
  CHECK(codes == std::vector<int>(8, 0));
  const Json list = repo.Review({"list"}).Json();
  REQUIRE(list["lineages"].size() == 8);
  for (const auto& entry : list["lineages"]) CHECK(entry["state"] == "escalated");
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

TEST_CASE("worktrees: a burn from a sibling worktree keys the tombstone by the original root") {
  LifecycleRepo repo;
  auto approved = repo.StartApproved();
  const std::string sibling = repo.root() + "-sibling";
  REQUIRE(repo.Git({"worktree", "add", "-q", sibling, "-b", "side"}).exit_code == 0);
  RunResult burn =
      GentleAi({"review", "burn", "--cwd", sibling, "--lineage", approved.lineage, "--token",
                approved.token, "--expected-revision", approved.revision, "--json"},
               sibling);
  INFO(burn.out << burn.err);
  REQUIRE(burn.exit_code == 0);
  CHECK(burn.Json()["original_worktree"] == true);
  CHECK(burn.Json()["repository"] == store::RepoKey(repo.root()));
  // So the original worktree's START of the same candidate is refused as consumed.
  RunResult again = repo.Review({"start", "--untracked", "change-1.txt"});
  CHECK(again.exit_code == 4);
  CHECK(again.Json()["error"]["code"] == "consumed");
  RunResult status = GentleAi(
      {"review", "status", "--cwd", sibling, "--lineage", approved.lineage, "--json"}, sibling);
  CHECK(status.exit_code == 4);
  repo.Git({"worktree", "remove", "--force", sibling});
}

}  // namespace
}  // namespace gentle::testing
