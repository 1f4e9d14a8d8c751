// review status and review list through the built CLI: applicability, sibling worktrees, unrelated
// clones, refusals with exact codes, and the read-only guarantee.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "store/file_lock.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

std::string StartLineage(const std::string& repo) {
  RunResult r = GentleAi({"review", "start", "--json"}, repo);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out)["lineage"];
}

nlohmann::json StatusOf(const std::string& cwd, const std::string& lineage, int expected_exit = 0) {
  RunResult r = GentleAi({"review", "status", "--json", "--lineage", lineage}, cwd);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == expected_exit);
  return nlohmann::json::parse(r.out);
}

std::string StoreRoot(const std::string& repo) {
  return repo + "/.git/gentle-ai/review-transactions";
}

}  // namespace

TEST_CASE("status reports current_target - then unrelated when the workspace moves on") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  WriteFile(repo + "/a.txt", "one\n");
  std::string lineage = StartLineage(repo);
  auto status = StatusOf(repo, lineage);
  CHECK(status["schema"] == "gentle-ai.review-status/v1");
  REQUIRE(status["lineages"].size() == 1);
  auto entry = status["lineages"][0];
  CHECK(entry["lineage"] == lineage);
  CHECK(entry["state"] == "reviewing");
  CHECK(entry["kind"] == "current-changes");
  CHECK(entry["applicability"] == "current_target");
  CHECK(entry["live_target_identity"] == entry["target_identity"]);

  WriteFile(repo + "/a.txt", "two\n");
  entry = StatusOf(repo, lineage)["lineages"][0];
  CHECK(entry["applicability"] == "unrelated");
  CHECK(entry["live_target_identity"] != entry["target_identity"]);

  RunResult human = GentleAi({"review", "status", "--lineage", lineage}, repo);
  CHECK(human.exit_code == 0);
  CHECK(human.out.rfind(lineage + "  reviewing  unrelated", 0) == 0);
}

TEST_CASE("status is read-only: the whole common dir is byte-identical afterwards") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  WriteFile(repo + "/a.txt", "one\n");
  WriteFile(repo + "/new.txt", "untracked, not intended\n");
  std::string lineage = StartLineage(repo);
  WriteFile(repo + "/dir/b.txt", "changed after start\n");
  auto before = HashTree(repo + "/.git");
  CHECK(GentleAi({"review", "status", "--json"}, repo).exit_code == 0);
  CHECK(GentleAi({"review", "status", "--lineage", lineage}, repo).exit_code == 0);
  CHECK(GentleAi({"review", "list", "--json"}, repo).exit_code == 0);
  CHECK(GentleAi({"review", "status", "--lineage", "review-0000000000000000"}, repo).exit_code ==
        3);
  CHECK(HashTree(repo + "/.git") == before);
}

TEST_CASE("read commands on a repository without a store create nothing") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  auto before = HashTree(repo + "/.git");
  RunResult list = GentleAi({"review", "list", "--json"}, repo);
  CHECK(list.exit_code == 0);
  CHECK(list.out == "{\"schema\":\"gentle-ai.review-list/v1\",\"lineages\":[]}\n");
  CHECK(GentleAi({"review", "status"}, repo).exit_code == 0);
  CHECK(HashTree(repo + "/.git") == before);
}

TEST_CASE("a sibling linked worktree sees the lineage - an unrelated clone gets not_found") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  WriteFile(repo + "/a.txt", "one\n");
  std::string lineage = StartLineage(repo);
  Git(repo, {"worktree", "add", "-q", tmp.path() + "/sibling", "-b", "side"});
  auto entry = StatusOf(tmp.path() + "/sibling", lineage)["lineages"][0];
  CHECK(entry["state"] == "reviewing");
  CHECK(entry["applicability"] == "unrelated");
  auto list =
      nlohmann::json::parse(GentleAi({"review", "list", "--json"}, tmp.path() + "/sibling").out);
  REQUIRE(list["lineages"].size() == 1);
  CHECK(list["lineages"][0]["lineage"] == lineage);
  CHECK(list["lineages"][0]["path_count"] == 1);

  // The sibling's own candidate is a different lineage in the same shared store.
  WriteFile(tmp.path() + "/sibling/a.txt", "one\n");
  std::string sibling_lineage = StartLineage(tmp.path() + "/sibling");
  CHECK(sibling_lineage != lineage);
  CHECK(StatusOf(tmp.path() + "/sibling", sibling_lineage)["lineages"][0]["applicability"] ==
        "current_target");

  Git(tmp.path(), {"clone", "-q", repo, tmp.path() + "/clone"});
  auto error = StatusOf(tmp.path() + "/clone", lineage, 3);
  CHECK(error["error"]["code"] == "not_found");
  CHECK(error["error"]["lineage"] == lineage);
}

TEST_CASE("hostile lineage ids are refused as usage before any path is built") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  for (std::string bad :
       {std::string("a/b"), std::string(".."), std::string("../../etc"), std::string("Review-1"),
        std::string(""), std::string(129, 'a'), std::string("/abs")}) {
    INFO("id: " << bad);
    RunResult r = GentleAi({"review", "status", "--json", "--lineage", bad}, repo);
    CHECK(r.exit_code == 2);
    CHECK(nlohmann::json::parse(r.out)["error"]["code"] == "usage");
  }
}

TEST_CASE("a tampered record is corrupted") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  WriteFile(repo + "/a.txt", "one\n");
  std::string lineage = StartLineage(repo);
  const std::string path = StoreRoot(repo) + "/v2/" + lineage + "/review-state.json";
  std::string bytes = ReadFile(path);
  bytes[bytes.find("\"reviewing\"") + 2] = 'E';
  WriteFile(path, bytes);
  auto before = HashTree(repo + "/.git");
  auto error = StatusOf(repo, lineage, 7);
  CHECK(error["error"]["code"] == "corrupted");
  CHECK(error["error"]["lineage"] == lineage);
  // list reads the index (a catalog, not a verifier); fsck is what proves files and index agree.
  auto fsck = GentleAi({"review", "fsck", "--json"}, repo);
  CHECK(fsck.exit_code != 0);
  CHECK(fsck.out.find(lineage) != std::string::npos);
  CHECK(HashTree(repo + "/.git") == before);
  auto all = nlohmann::json::parse(GentleAi({"review", "status", "--json"}, repo).out);
  CHECK(all["lineages"][0]["applicability"] == "corrupted");
  CHECK(HashTree(repo + "/.git") == before);
  // Start of the same candidate refuses rather than overwrite the damaged record.
  RunResult again = GentleAi({"review", "start", "--json"}, repo);
  CHECK(again.exit_code == 7);
  CHECK(ReadFile(path) == bytes);
}

TEST_CASE("a symlinked gentle-ai directory is refused") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  TempDir outside;
  REQUIRE(symlink(outside.path().c_str(), (repo + "/.git/gentle-ai").c_str()) == 0);
  WriteFile(repo + "/a.txt", "one\n");
  RunResult start = GentleAi({"review", "start", "--json"}, repo);
  CHECK(start.exit_code == 7);
  CHECK(nlohmann::json::parse(start.out)["error"]["code"] == "corrupted");
  CHECK(GentleAi({"review", "list"}, repo).exit_code == 7);
  CHECK(HashTree(outside.path()).size() == 1);  // only the directory itself: nothing written there
}

TEST_CASE("a held writer lock gives busy within the bounded wait") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  WriteFile(repo + "/a.txt", "one\n");
  StartLineage(repo);
  WriteFile(repo + "/a.txt", "two\n");
  auto held =
      store::FileLock::Acquire(StoreRoot(repo) + "/v2/LOCK", store::LockMode::kExclusive, true);
  REQUIRE(held.ok());
  RunResult r = GentleAi({"review", "start", "--json"}, repo, {{"GENTLE_LOCK_TIMEOUT_MS", "50"}});
  CHECK(r.exit_code == 12);
  CHECK(nlohmann::json::parse(r.out)["error"]["code"] == "busy");
  // An exclusive maintenance lock blocks readers too.
  auto maintenance = store::FileLock::Acquire(repo + "/.git/gentle-ai/REVIEW-MAINTENANCE.lock",
                                              store::LockMode::kExclusive, true);
  REQUIRE(maintenance.ok());
  CHECK(GentleAi({"review", "list"}, repo, {{"GENTLE_LOCK_TIMEOUT_MS", "50"}}).exit_code == 12);
}

TEST_CASE("the batch-reconciliation marker refuses every command but status - which says so") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  WriteFile(repo + "/a.txt", "one\n");
  std::string lineage = StartLineage(repo);
  WriteFile(StoreRoot(repo) + "/batch-reconcile-journal.json", "{}");
  WriteFile(repo + "/a.txt", "two\n");
  auto before = HashTree(repo + "/.git");
  for (const auto& args : std::vector<std::vector<std::string>>{{"review", "start", "--json"},
                                                                {"review", "list", "--json"}}) {
    RunResult r = GentleAi(args, repo);
    CHECK(r.exit_code == 6);
    CHECK(nlohmann::json::parse(r.out)["error"]["code"] == "reconciliation_prepared");
  }
  // status still answers (docs/loop.md): no entries, and next says why nothing can be done.
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"review", "status", "--json"}, {"review", "status", "--json", "--lineage", lineage}}) {
    RunResult r = GentleAi(args, repo);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK(nlohmann::json::parse(r.out) ==
          nlohmann::json::parse("{\"schema\":\"gentle-ai.review-status/v1\",\"lineages\":[],"
                                "\"next\":\"none\",\"next_reason\":\"reconciliation_prepared\","
                                "\"next_lineage\":null,\"parts\":null,\"max_bytes\":null}"));
  }
  CHECK(HashTree(repo + "/.git") == before);
}

TEST_CASE("a lock file that is a directory is corrupted - not a hang") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  WriteFile(repo + "/a.txt", "one\n");
  StartLineage(repo);
  const std::string lock = StoreRoot(repo) + "/v2/LOCK";
  REQUIRE(unlink(lock.c_str()) == 0);
  REQUIRE(mkdir(lock.c_str(), 0700) == 0);
  WriteFile(repo + "/a.txt", "two\n");
  RunResult r = GentleAi({"review", "start", "--json"}, repo);
  CHECK(r.exit_code == 7);
  CHECK(nlohmann::json::parse(r.out)["error"]["code"] == "corrupted");
}

TEST_CASE("every command has --help") {
  TempDir tmp;
  // app.cc defines only the verb argv names; each must still carry its full help.
  const std::vector<std::vector<std::string>> commands = {{"start"},          {"status"},
                                                          {"list"},           {"export-context"},
                                                          {"verify"},         {"attest"},
                                                          {"verdict"},        {"burn"},
                                                          {"abandon"},        {"reclaim"},
                                                          {"invalidate"},     {"fsck"},
                                                          {"store", "reset"}, {"index", "rebuild"},
                                                          {"repair"},         {"import"},
                                                          {"push"},           {"fetch"},
                                                          {"revise"},         {"context", "import"},
                                                          {"ledger"},         {"seen", "baseline"},
                                                          {"seen", "add"},    {"seen", "check"},
                                                          {"seen", "list"},   {"seen", "new"},
                                                          {"hint", "parse"}};
  RunResult all = GentleAi({"review", "--help"}, tmp.path());
  CHECK(all.exit_code == 0);
  for (const auto& words : commands) {
    std::vector<std::string> args = {"review"};
    args.insert(args.end(), words.begin(), words.end());
    std::string path = "gentle-ai";
    for (const auto& word : args) path += " " + word;
    args.push_back("--help");
    RunResult r = GentleAi(args, tmp.path());
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("Usage: " + path + " [OPTIONS]") != std::string::npos);
    CHECK(r.out.find("--cwd") != std::string::npos);
    CHECK(r.out.find("--json") != std::string::npos);
    CHECK(all.out.find("\n  " + words.front() + " ") != std::string::npos);
  }
}

TEST_CASE("an unknown option is usage for every verb - in the --json shape") {
  TempDir tmp;
  for (const auto& verb :
       {"start", "status",  "list",    "export-context", "verify", "attest",  "verdict",
        "burn",  "abandon", "reclaim", "invalidate",     "fsck",   "repair",  "import",
        "push",  "fetch",   "comment", "parse-comment",  "revise", "context", "ledger",
        "show"}) {
    RunResult r = GentleAi({"review", verb, "--bogus", "--json"}, tmp.path());
    CHECK(r.exit_code == 2);
    CHECK(nlohmann::json::parse(r.out)["error"]["code"] == "usage");
  }
  for (const auto& [group, verb] :
       std::vector<std::pair<std::string, std::string>>{{"seen", "baseline"},
                                                        {"seen", "add"},
                                                        {"seen", "check"},
                                                        {"seen", "list"},
                                                        {"seen", "new"},
                                                        {"hint", "parse"},
                                                        {"store", "reset"},
                                                        {"index", "rebuild"}}) {
    RunResult r = GentleAi({"review", group, verb, "--bogus", "--json"}, tmp.path());
    CHECK(r.exit_code == 2);
    CHECK(nlohmann::json::parse(r.out)["error"]["code"] == "usage");
  }
  RunResult unknown = GentleAi({"review", "frob"}, tmp.path());
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.rfind("gentle-ai: usage: ", 0) == 0);
}

}  // namespace gentle::testing
