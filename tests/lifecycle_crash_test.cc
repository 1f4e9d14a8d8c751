// Crash safety: every mutation is stopped at each of its durable steps (GENTLE_FAULT_POINT; the
// process _exits 86 there). Afterwards the next command must see a consistent store (reads
// succeed and report the state from before or after the mutation, never a third one), the next
// writer recovers, and `review fsck` is clean.
#include <catch2/catch.hpp>
#include <filesystem>
#include <functional>
#include <set>

#include "tests/support/crash_sweeps.h"
#include "tests/support/files.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/sanitizer_sample.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

struct Scenario {
  std::string name;
  // Prepares the repository and returns the command to interrupt and the lineage it concerns;
  // `answers` (may stay empty) gets lineages whose answers must hold throughout.
  std::function<std::vector<std::string>(LifecycleRepo&, std::string*, Answers* answers)> setup;
  // Fault points this mutation must pass (the contract; the trace may hold more).
  std::vector<std::string> required;
  // Acceptable `status --lineage` exit codes right after the crash (before / after the mutation).
  std::set<int> status_exits;
  // Acceptable exit codes when the interrupted command is retried after recovery: it completes
  // (0) or reports that it had already taken effect.
  std::set<int> retry_exits;
};

// Makes `lineage`'s history one fetched from origin that this store does not hold: store reset
// removes the store and refs/gentle-ai/reviews/, not the fetched refs; a live lineage is started
// after it so the store exists. Returns the import command.
std::vector<std::string> AsIfFetched(LifecycleRepo& repo, const std::string& lineage) {
  repo.GitOk(
      {"update-ref", "refs/gentle-ai/remotes/origin/reviews/" + lineage, ReviewRef(lineage)});
  repo.ReviewOk({"store", "reset", "--yes"});
  repo.StartNew();
  return {"import", "--lineage", lineage};
}

std::vector<Scenario> Scenarios() {
  return {
      {"start",
       [](LifecycleRepo& repo, std::string* lineage, Answers*) {
         repo.Write("fresh.txt", "fresh\n");
         *lineage = "";
         return std::vector<std::string>{"start", "--untracked", "fresh.txt"};
       },
       {"start:locked", "start:index-prepared", "start:history-prepared", "start:lineage-dir",
        "start:record-written", "start:index-committed"},
       {},
       {0}},
      {"verdict",
       [](LifecycleRepo& repo, std::string* lineage, Answers*) {
         *lineage = repo.StartNew()["lineage"];
         return std::vector<std::string>{"verdict",  "--lineage", *lineage, "--verdict",
                                         "APPROVE",  "--actor",   "a",      "--role",
                                         "reviewer", "--body",    "b"};
       },
       {"verdict:locked", "verdict:index-prepared", "verdict:history-prepared",
        "verdict:record-written", "verdict:index-committed"},
       {0},
       {0, 6}},
      {"revise",
       [](LifecycleRepo& repo, std::string* lineage, Answers*) {
         *lineage = repo.StartNew()["lineage"];
         RunResult asked =
             repo.Review({"verdict", "--lineage", *lineage, "--verdict", "REQUEST_CHANGES",
                          "--actor", "a", "--role", "reviewer", "--body", "fix it"});
         REQUIRE(asked.exit_code == 0);
         repo.Write("a.txt", "fixed\n");
         return std::vector<std::string>{"revise", "--lineage", *lineage};
       },
       {"revise:captured", "revise:locked", "revise:index-prepared", "revise:history-prepared",
        "revise:record-written", "revise:index-committed"},
       {0},
       {0, 6}},
      {"burn",
       [](LifecycleRepo& repo, std::string* lineage, Answers*) {
         auto approved = repo.StartApproved();
         *lineage = approved.lineage;
         return std::vector<std::string>{"burn",           "--lineage",    approved.lineage,
                                         "--token",        approved.token, "--expected-revision",
                                         approved.revision};
       },
       {"burn:locked", "burn:index-prepared", "burn:history-prepared", "burn:tombstone-written",
        "burn:record-removed", "burn:lineage-removed", "burn:index-committed"},
       {0, 4},
       {0, 4}},
      {"abandon",
       [](LifecycleRepo& repo, std::string* lineage, Answers*) {
         *lineage = repo.StartNew()["lineage"];
         return std::vector<std::string>{
             "abandon", "--lineage", *lineage, "--reason", "operator_disposition",
             "--actor", "ops"};
       },
       {"abandon:locked", "abandon:index-prepared", "abandon:quarantine-dir",
        "abandon:audit-prepared", "abandon:history-prepared", "abandon:moved",
        "abandon:audit-committed", "abandon:index-committed"},
       {0, 5},
       {0, 5}},
      {"reclaim",
       [](LifecycleRepo& repo, std::string* lineage, Answers*) {
         repo.StartNew();
         *lineage = "review-00000000c0ffee00";
         WriteFile(repo.store_root() + "/v2/" + *lineage + "/.atomic-x", "partial");
         return std::vector<std::string>{"reclaim", "--lineage", *lineage, "--reason",
                                         "crash",   "--actor",   "ops"};
       },
       {"reclaim:locked", "reclaim:index-prepared", "reclaim:quarantine-dir",
        "reclaim:audit-prepared", "reclaim:moved", "reclaim:audit-committed",
        "reclaim:index-committed"},
       {7, 5},
       {0, 5}},
      {"invalidate",
       [](LifecycleRepo& repo, std::string* lineage, Answers*) {
         *lineage = repo.StartNew()["lineage"];
         return std::vector<std::string>{"invalidate", "--lineage", *lineage, "--reason",
                                         "r",          "--actor",   "ops"};
       },
       {"invalidate:locked", "invalidate:index-prepared", "invalidate:history-prepared",
        "invalidate:record-written", "invalidate:index-committed"},
       {0},
       {0, 6}},
      {"store reset",
       [](LifecycleRepo& repo, std::string* lineage, Answers*) {
         auto approved = repo.StartApproved();
         *lineage = approved.lineage;
         return std::vector<std::string>{"store", "reset", "--yes"};
       },
       {"reset:locked", "reset:store-moved", "reset:unpinned", "reset:removed"},
       {0, 3},
       {0}},
      {"index rebuild",
       [](LifecycleRepo& repo, std::string* lineage, Answers* answers) {
         *answers = StartThreeKinds(repo);
         *lineage = answers->front().first;
         return std::vector<std::string>{"index", "rebuild"};
       },
       {"index-rebuild:locked", "index-rebuild:files-recovered", "index-rebuild:built",
        "index-rebuild:old-removed", "index-rebuild:side-files-removed", "index-rebuild:installed",
        "index-rebuild:replaced"},
       {0},
       {0}},
      // Import takes a fetched history in as a record (a live tip), a tombstone (a burn) or an
      // audit record in quarantine (an abandon). The readers answer from the verified fetched
      // history before it and from the store after it: the same answer throughout. A retry
      // completes it or finds it up to date.
      {"import",
       [](LifecycleRepo& repo, std::string* lineage, Answers*) {
         *lineage = repo.StartApproved().lineage;
         return AsIfFetched(repo, *lineage);
       },
       {"import:locked", "import:files-written", "import:ref-moved", "import:index-committed"},
       {0},
       {0}},
      {"import of a burned lineage",
       [](LifecycleRepo& repo, std::string* lineage, Answers*) {
         auto approved = repo.StartApproved();
         *lineage = approved.lineage;
         repo.ReviewOk({"burn", "--lineage", approved.lineage, "--token", approved.token,
                        "--expected-revision", approved.revision});
         return AsIfFetched(repo, *lineage);
       },
       {"import:locked", "import:files-written", "import:ref-moved", "import:index-committed"},
       {4},
       {0}},
      {"import of an abandoned lineage",
       [](LifecycleRepo& repo, std::string* lineage, Answers*) {
         *lineage = repo.StartNew()["lineage"];
         repo.ReviewOk({"abandon", "--lineage", *lineage, "--reason", "operator_disposition",
                        "--actor", "ops"});
         return AsIfFetched(repo, *lineage);
       },
       {"import:locked", "import:files-written", "import:ref-moved", "import:index-committed"},
       {5},
       {0}},
      {"a writer rebuilding a missing index",
       [](LifecycleRepo& repo, std::string* lineage, Answers* answers) {
         *answers = StartThreeKinds(repo);
         *lineage = answers->front().first;
         for (const char* suffix : {"", "-wal", "-shm"}) {
           std::filesystem::remove(repo.store_root() + "/index.sqlite" + suffix);
         }
         return std::vector<std::string>{"verdict",         "--lineage", *lineage, "--verdict",
                                         "REQUEST_CHANGES", "--actor",   "a",      "--role",
                                         "reviewer",        "--body",    "b"};
       },
       {"index-rebuild:built", "index-rebuild:old-removed", "index-rebuild:side-files-removed",
        "index-rebuild:installed", "index-rebuild:replaced", "verdict:index-committed"},
       {0},
       {0, 6}},
  };
}

TEST_CASE("crash: every durable step of every mutation leaves a recoverable - consistent store") {
  for (const Scenario& scenario : Scenarios()) {
    std::vector<std::string> points;
    {
      LifecycleRepo repo;
      std::string lineage;
      Answers answers;
      auto args = scenario.setup(repo, &lineage, &answers);
      points = TraceFaultPoints(repo, args);
    }
    INFO("mutation: " << scenario.name << "; trace: " << Json(points).dump());
    for (const std::string& required : scenario.required) {
      CHECK(std::find(points.begin(), points.end(), required) != points.end());
    }
    const std::set<std::string> distinct(points.begin(), points.end());
    // Every distinct point in the normal build; three of them under the sanitizers.
    for (const std::string& point :
         SanitizerSample(std::vector<std::string>(distinct.begin(), distinct.end()), 3)) {
      INFO("fault point: " << point);
      LifecycleRepo repo;
      std::string lineage;
      Answers answers;
      auto args = scenario.setup(repo, &lineage, &answers);
      RunResult crashed = repo.Review(args, {{"GENTLE_FAULT_POINT", point}});
      REQUIRE(crashed.exit_code == 86);
      ExpectAnswers(repo, answers);

      // The next reader sees a consistent store.
      RunResult list = repo.Review({"list"});
      INFO("list: " << list.out << list.err);
      CHECK(list.exit_code == 0);
      if (!lineage.empty()) {
        RunResult status = repo.Review({"status", "--lineage", lineage});
        INFO("status: " << status.out << status.err);
        CHECK(scenario.status_exits.count(status.exit_code) == 1);
      }
      RunResult all = repo.Review({"status"});
      INFO("status: " << all.out << all.err);
      CHECK(all.exit_code == 0);
      const auto all_json = all.Json();  // keep the document alive while iterating it
      for (const auto& s : all_json["lineages"]) CHECK(s["applicability"] != "corrupted");

      // The next writer recovers; the interrupted command can be retried; then fsck is clean.
      repo.StartNew();
      RunResult retry = repo.Review(args);
      INFO("retry: " << retry.out << retry.err);
      CHECK(scenario.retry_exits.count(retry.exit_code) == 1);
      ExpectFsckClean(repo);
      ExpectAnswers(repo, answers);
    }
  }
}

TEST_CASE("crash: an interrupted burn is finished or undone - never half-done") {
  // Before the record is removed, the burn did not happen: the token still works.
  {
    LifecycleRepo repo;
    auto approved = repo.StartApproved();
    std::vector<std::string> burn = {"burn",           "--lineage",    approved.lineage,
                                     "--token",        approved.token, "--expected-revision",
                                     approved.revision};
    REQUIRE(repo.Review(burn, {{"GENTLE_FAULT_POINT", "burn:tombstone-written"}}).exit_code == 86);
    CHECK(repo.Review({"status", "--lineage", approved.lineage}).exit_code == 0);
    RunResult again = repo.Review(burn);
    INFO(again.out << again.err);
    CHECK(again.exit_code == 0);
    CHECK(repo.Review({"fsck"}).exit_code == 0);
  }
  // After the record is removed, the burn took effect: readers say consumed, a writer finishes it.
  {
    LifecycleRepo repo;
    auto approved = repo.StartApproved();
    std::vector<std::string> burn = {"burn",           "--lineage",    approved.lineage,
                                     "--token",        approved.token, "--expected-revision",
                                     approved.revision};
    REQUIRE(repo.Review(burn, {{"GENTLE_FAULT_POINT", "burn:record-removed"}}).exit_code == 86);
    CHECK(repo.Review({"status", "--lineage", approved.lineage}).exit_code == 4);
    CHECK(repo.Review(burn).exit_code == 4);
    CHECK(repo.Review({"fsck"}).exit_code == 7);  // the directory remains until a writer runs
    repo.StartNew();
    CHECK(repo.Review({"fsck"}).exit_code == 0);
    // The history stays, ending in the terminal burn commit.
    CHECK(
        repo.Git({"log", "-1", "--format=%s", "refs/gentle-ai/reviews/" + approved.lineage}).out ==
        "burn " + approved.lineage + "\n");
  }
}

TEST_CASE("crash: an interrupted abandon is resolved by whether residue/ exists") {
  for (const char* point : {"abandon:audit-prepared", "abandon:moved"}) {
    INFO(point);
    LifecycleRepo repo;
    const std::string lineage = repo.StartNew()["lineage"];
    std::vector<std::string> abandon = {
        "abandon", "--lineage", lineage, "--reason", "operator_disposition", "--actor", "ops"};
    REQUIRE(repo.Review(abandon, {{"GENTLE_FAULT_POINT", point}}).exit_code == 86);
    const bool moved = std::string(point) == "abandon:moved";
    CHECK(repo.Review({"status", "--lineage", lineage}).exit_code == (moved ? 5 : 0));
    RunResult rebuild = repo.Review({"index", "rebuild"});
    REQUIRE(rebuild.exit_code == 0);
    CHECK(repo.Review({"fsck"}).exit_code == 0);
    RunResult list = repo.Review({"list"});
    CHECK(list.Json()["lineages"][0]["state"] == (moved ? "retired" : "reviewing"));
    if (moved) {
      const std::string audit = list.Json()["lineages"][0]["audit_record"];
      CHECK(Json::parse(ReadFile(audit))["status"] == "committed");
    }
  }
}

}  // namespace

std::vector<std::string> FaultPointSweepOperations() {
  std::vector<std::string> names;
  for (const Scenario& op : Scenarios()) names.push_back(op.name);
  return names;
}

}  // namespace gentle::testing
