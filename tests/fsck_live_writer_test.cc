// fsck beside a live writer (transaction/fsck.h, docs/lifecycle.md "review fsck"): a writer held
// still at a step of its protocol (tests/support/paused_writer.h) holds the writer lock, and what
// that step shows (a prepared row, a history one step ahead, a directory before its record) is
// work in progress, not a finding: fsck exits 0, clean, with `live_writer` true. The same step
// left by a writer that died is reported.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "store/fault_point.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/paused_writer.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

std::vector<std::string> Codes(const nlohmann::json& report) {
  std::vector<std::string> out;
  for (const auto& finding : report["findings"]) out.push_back(finding["code"]);
  return out;
}

std::vector<std::string> Verdict(const std::string& lineage) {
  return {"verdict", "--lineage", lineage,    "--verdict", "APPROVE", "--actor",
          "ana",     "--role",    "reviewer", "--body",    "fine"};
}

}  // namespace

TEST_CASE("fsck: a live writer's work in progress is no finding") {
  for (const std::string point : {"verdict:index-prepared", "verdict:history-prepared",
                                  "verdict:record-written", "start:lineage-dir"}) {
    INFO(point);
    LifecycleRepo repo;
    const std::string lineage = repo.StartNew()["lineage"];
    repo.Write("second.txt", "second\n");
    const std::vector<std::string> args =
        point.rfind("start", 0) == 0
            ? std::vector<std::string>{"start", "--untracked", "second.txt"}
            : Verdict(lineage);
    PausedWriter writer(repo, args, point);
    REQUIRE(writer.paused());
    RunResult fsck = repo.Review({"fsck"});
    INFO(fsck.out << fsck.err);
    CHECK(fsck.exit_code == 0);
    CHECK(fsck.Json()["clean"] == true);
    CHECK(fsck.Json()["live_writer"] == true);
    CHECK(Codes(fsck.Json()).empty());
    RunResult human = repo.Review({"fsck"}, {}, false);
    CHECK(human.exit_code == 0);
    CHECK(human.out.rfind("a writer was at work during the check: its work in progress is not "
                          "reported\nclean: ",
                          0) == 0);
    RunResult finished = writer.Resume();
    INFO(finished.out << finished.err);
    REQUIRE(finished.exit_code == 0);
    RunResult after = repo.Review({"fsck"});
    CHECK(after.exit_code == 0);
    CHECK(after.Json()["live_writer"] == false);
  }
}

TEST_CASE("fsck: a writer that died at a step is reported - no live writer") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  RunResult killed =
      repo.Review(Verdict(lineage), {{"GENTLE_FAULT_POINT", "verdict:history-prepared"}});
  REQUIRE(killed.exit_code == store::kFaultExitCode);
  RunResult fsck = repo.Review({"fsck"});
  CHECK(fsck.exit_code == 7);
  CHECK(fsck.Json()["live_writer"] == false);
  CHECK(Codes(fsck.Json()) == std::vector<std::string>{"index_prepared", "history_ahead"});
}

}  // namespace gentle::testing
