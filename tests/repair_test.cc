// review repair (docs/lifecycle.md, "review repair"): the drift fsck reports between a history
// and its record (history_ahead after a crash at <verb>:history-prepared, history_behind,
// pin_missing, an old pin) is resolved under the writer lock, per lineage or for all, with the
// record bytes unchanged; a second run and a clean store do nothing.
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/support/files.h"
#include "tests/support/go_store.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

std::string GitOut(const LifecycleRepo& repo, const std::vector<std::string>& args) {
  std::string out = repo.GitOk(args);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::vector<std::string> Subjects(const LifecycleRepo& repo, const std::string& lineage) {
  std::istringstream lines(GitOut(repo, {"log", "--format=%s", ReviewRef(lineage)}));
  std::vector<std::string> out;
  for (std::string line; std::getline(lines, line);) out.push_back(line);
  return out;
}

std::vector<std::string> FindingCodes(const LifecycleRepo& repo) {
  const Json report = repo.Review({"fsck"}).Json();
  std::vector<std::string> out;
  for (const auto& f : report["findings"]) out.push_back(f["code"]);
  return out;
}

// The record file a history commit holds, byte for byte.
std::string HistoryRecord(const LifecycleRepo& repo, const std::string& rev) {
  RunResult run = repo.Git({"cat-file", "blob", rev + ":review-state.json"});
  REQUIRE(run.exit_code == 0);
  return run.out;
}

Json Entry(const std::string& lineage, const std::string& found,
           const std::vector<std::string>& actions) {
  return Json{{"lineage", lineage},
              {"found", found},
              {"actions", actions},
              {"left", nullptr},
              {"error", nullptr}};
}

Json Report(const std::vector<Json>& entries) {
  return Json{{"schema", "gentle-ai.review-repair/v1"}, {"clean", true}, {"lineages", entries}};
}

TEST_CASE("repair: a crash at history-prepared is rolled back - record unchanged - idempotent") {
  for (const char* point : {"verdict:history-prepared", "burn:history-prepared",
                            "abandon:history-prepared", "invalidate:history-prepared"}) {
    INFO(point);
    LifecycleRepo repo;
    auto approved = repo.StartApproved();
    const std::string live = repo.StartNew()["lineage"];
    const std::string verb = std::string(point).substr(0, std::string(point).find(':'));
    std::string lineage = live;
    std::vector<std::string> args;
    if (verb == "verdict") {
      args = {"verdict", "--lineage", live,     "--verdict", "REQUEST_CHANGES", "--actor", "ana",
              "--role",  "reviewer",  "--body", "x"};
    }
    if (verb == "burn") {
      lineage = approved.lineage;
      args = {"burn",         "--lineage",           approved.lineage, "--token",
              approved.token, "--expected-revision", approved.revision};
    }
    if (verb == "abandon") {
      args = {"abandon", "--lineage", live, "--reason", "operator_disposition", "--actor", "ops"};
    }
    if (verb == "invalidate") {
      args = {"invalidate", "--lineage", live, "--reason", "r", "--actor", "ops"};
    }
    const std::string before_tip = GitOut(repo, {"rev-parse", ReviewRef(lineage)});
    const std::string record = ReadFile(repo.record_path(lineage));
    REQUIRE(repo.Review(args, {{"GENTLE_FAULT_POINT", point}}).exit_code == 86);
    const auto codes = FindingCodes(repo);
    REQUIRE(std::count(codes.begin(), codes.end(), "history_ahead") == 1);

    RunResult repair = repo.Review({"repair"});
    INFO(repair.out << repair.err);
    REQUIRE(repair.exit_code == 0);
    CHECK(repair.Json() == Report({Entry(lineage, "history_ahead", {"rolled_back"})}));
    CHECK(GitOut(repo, {"rev-parse", ReviewRef(lineage)}) == before_tip);
    CHECK(ReadFile(repo.record_path(lineage)) == record);
    ExpectFsckClean(repo);
    // Idempotent: nothing left to do, nothing written.
    const auto store_after = repo.StoreBytes();
    RunResult again = repo.Review({"repair"});
    CHECK(again.exit_code == 0);
    CHECK(again.Json() == Report({}));
    CHECK(repo.StoreBytes() == store_after);
    // The interrupted command then succeeds once.
    CHECK(repo.Review(args).exit_code == 0);
    ExpectFsckClean(repo);
  }
}

TEST_CASE("repair: a history behind its record gets a sync commit - one lineage or all") {
  LifecycleRepo repo;
  std::vector<std::string> lineages;
  for (int i = 0; i < 2; ++i) {
    const std::string lineage = repo.StartNew()["lineage"];
    REQUIRE(repo.Review({"verdict", "--lineage", lineage, "--verdict", "REQUEST_CHANGES", "--actor",
                         "ana", "--role", "reviewer", "--body", "one"})
                .exit_code == 0);
    // As if another tool had rewritten the record without the history: drop the verdict commit.
    REQUIRE(repo.Git({"update-ref", ReviewRef(lineage), ReviewRef(lineage) + "~1"}).exit_code == 0);
    lineages.push_back(lineage);
  }
  const std::string first = lineages[0], second = lineages[1];
  const std::string first_record = ReadFile(repo.record_path(first));
  const std::string second_record = ReadFile(repo.record_path(second));
  CHECK(FindingCodes(repo) == std::vector<std::string>{"history_behind", "history_behind"});

  // One lineage: only it is repaired.
  RunResult one = repo.Review({"repair", "--lineage", first});
  INFO(one.out << one.err);
  REQUIRE(one.exit_code == 0);
  CHECK(one.Json() == Report({Entry(first, "history_behind", {"synced"})}));
  CHECK(Subjects(repo, first) == std::vector<std::string>{"sync " + first, "start " + first});
  CHECK(HistoryRecord(repo, ReviewRef(first)) == first_record);
  CHECK(FindingCodes(repo) == std::vector<std::string>{"history_behind"});

  // All: the other one; the first is in step and not listed.
  RunResult all = repo.Review({"repair"}, {}, false);
  INFO(all.out << all.err);
  REQUIRE(all.exit_code == 0);
  CHECK(all.out == second + "  history_behind  synced\nrepaired: 1 lineage(s)\n");
  CHECK(Subjects(repo, second) == std::vector<std::string>{"sync " + second, "start " + second});
  CHECK(ReadFile(repo.record_path(first)) == first_record);
  CHECK(ReadFile(repo.record_path(second)) == second_record);
  ExpectFsckClean(repo);
  RunResult again = repo.Review({"repair"}, {}, false);
  CHECK(again.exit_code == 0);
  CHECK(again.out == "nothing to repair\n");
}

TEST_CASE("repair: a store the Go gentle-ai wrote gets its histories - records unchanged") {
  LifecycleRepo repo;
  GoStore g = BuildGoStore(repo);
  const auto before = repo.StoreBytes();
  RunResult repair = repo.Review({"repair"});
  INFO(repair.out << repair.err);
  REQUIRE(repair.exit_code == 0);
  std::vector<Json> expected;
  std::vector<std::string> synced = {g.live, g.approved, g.historical};
  std::sort(synced.begin(), synced.end());
  for (const std::string& lineage : synced) {
    expected.push_back(Entry(lineage, "pin_missing", {"synced"}));
  }
  CHECK(repair.Json() == Report(expected));
  const auto after = repo.StoreBytes();
  for (const std::string& lineage : synced) {
    const std::string record = "review-transactions/v2/" + lineage + "/review-state.json";
    CHECK(after.at(record) == before.at(record));
    CHECK(Subjects(repo, lineage) == std::vector<std::string>{"sync " + lineage});
    CHECK(HistoryRecord(repo, ReviewRef(lineage)) == ReadFile(repo.record_path(lineage)));
  }
  ExpectFsckClean(repo);
  CHECK(repo.Review({"repair"}).Json() == Report({}));
}

TEST_CASE("repair: a lineage whose history ref was deleted gets a history and fsck is clean") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  const std::string record = ReadFile(repo.record_path(lineage));
  repo.GitOk({"update-ref", "-d", ReviewRef(lineage)});
  const std::vector<std::string> found = FindingCodes(repo);
  REQUIRE(std::find(found.begin(), found.end(), "pin_missing") != found.end());
  RunResult repair = repo.Review({"repair"});
  INFO(repair.out << repair.err);
  REQUIRE(repair.exit_code == 0);
  CHECK(repair.Json() == Report({Entry(lineage, "pin_missing", {"synced"})}));
  CHECK(ReadFile(repo.record_path(lineage)) == record);
  CHECK(Subjects(repo, lineage) == std::vector<std::string>{"sync " + lineage});
  // Index and files agree without an index rebuild.
  ExpectFsckClean(repo);
}

TEST_CASE("repair: a clean store and a repository without a store are left untouched") {
  LifecycleRepo repo;
  const auto empty_before = HashTree(repo.common_dir());
  RunResult none = repo.Review({"repair"});
  CHECK(none.exit_code == 0);
  CHECK(none.Json() == Report({}));
  CHECK(HashTree(repo.common_dir()) == empty_before);

  repo.StartApproved();
  repo.StartNew();
  const auto before = repo.StoreBytes();
  RunResult clean = repo.Review({"repair"});
  CHECK(clean.exit_code == 0);
  CHECK(clean.Json() == Report({}));
  CHECK(repo.StoreBytes() == before);
  CHECK(repo.Review({"repair", "--lineage", "bad id"}).Json()["error"]["code"] == "usage");
}

}  // namespace
}  // namespace gentle::testing
