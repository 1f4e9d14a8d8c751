// A git ref lock left by a process killed while libgit2 held it
// (refs/gentle-ai/reviews/<lineage>.lock). Git never breaks a ref lock by itself and neither does
// the store: writing that ref (every mutation writes the lineage's history) answers `busy` with
// the lock's path; fsck names the lock (`ref_lock`); once the lock is removed the mutation goes
// through. The kill is real: `strace` injects SIGKILL at the rename of the ref's lock.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/lifecycle_support.h"
#include "tests/strace_kill.h"

namespace gentle::testing::life {
namespace {

std::vector<std::string> FindingCodes(const nlohmann::json& fsck) {
  std::vector<std::string> codes;
  for (const auto& f : fsck["findings"]) codes.push_back(f["code"]);
  return codes;
}

std::string PinPath(const LifecycleRepo& repo, const std::string& lineage) {
  return repo.common_dir() + "/refs/gentle-ai/reviews/" + lineage;
}

}  // namespace

TEST_CASE("a burn killed inside the history ref update leaves a lock that wedges nothing") {
  LifecycleRepo repo;
  LifecycleRepo::Approved approved = repo.StartApproved();
  const std::string pin = PinPath(repo, approved.lineage);
  const std::string lock = pin + ".lock";
  const std::string tip = repo.Git({"rev-parse", "refs/gentle-ai/reviews/" + approved.lineage}).out;
  const std::vector<std::string> burn = {
      "review",  "burn",         "--lineage",           approved.lineage,
      "--token", approved.token, "--expected-revision", approved.revision,
      "--json"};
  std::vector<std::string> args = {
      "-f",         "-qq",
      "-o",         "/dev/null",
      "-P",         lock,
      "-e",         "trace=rename,renameat,renameat2",
      "-e",         "inject=rename,renameat,renameat2:signal=KILL:when=1",
      GENTLE_AI_BIN};
  args.insert(args.end(), burn.begin() + 0, burn.end());
  Run killed = Exec("strace", args, repo.root(), TracedCommandEnv());
  REQUIRE(killed.exit_code == kKilledExit);
  REQUIRE(Exists(lock));

  // The burn never reached its history commit: the next writer undoes its prepared rows, the
  // lineage is still approved and its history unchanged; the lock stays, and fsck names it.
  repo.Write("other.txt", "other\n");
  Run start = repo.Review({"start", "--untracked", "other.txt"});
  REQUIRE(start.exit_code == 0);
  CHECK(repo.Review({"status", "--lineage", approved.lineage}).exit_code == 0);
  CHECK(repo.Git({"rev-parse", "refs/gentle-ai/reviews/" + approved.lineage}).out == tip);
  Run fsck = repo.Review({"fsck"});
  CHECK(fsck.exit_code != 0);
  CHECK(FindingCodes(fsck.Json()) == std::vector<std::string>{"ref_lock"});
  CHECK(fsck.Json()["findings"][0]["path"] == lock);
  // Writing the locked history is busy, with the lock's path, and changes nothing.
  std::vector<std::string> retry(burn.begin() + 1, burn.end() - 1);
  Run busy = repo.Review(retry);
  CHECK(busy.exit_code == 12);
  CHECK(busy.Json()["error"]["details"]["lock"] == lock);

  // Removing the lock is the person's call; after it the burn goes through.
  REQUIRE(unlink(lock.c_str()) == 0);
  Run burned = repo.Review(retry);
  CHECK(burned.exit_code == 0);
  Run clean = repo.Review({"fsck"});
  CHECK(clean.exit_code == 0);
  CHECK(clean.Json()["clean"] == true);
}

TEST_CASE("writing a locked pin ref is busy with the lock's path - never internal") {
  LifecycleRepo repo;
  repo.Write("a-new.txt", "new\n");
  // The lineage id is derived from the candidate: learn it from a start, then undo it by hand.
  Run first = repo.Review({"start", "--untracked", "a-new.txt"});
  REQUIRE(first.exit_code == 0);
  const std::string lineage = first.Json()["lineage"];
  REQUIRE(repo.Review({"abandon", "--lineage", lineage, "--reason", "operator_disposition",
                       "--actor", "ops"})
              .exit_code == 0);
  REQUIRE(repo.Review({"store", "reset", "--yes"}).exit_code == 0);

  const std::string lock = PinPath(repo, lineage) + ".lock";
  WriteFile(lock, "");
  Run start = repo.Review({"start", "--untracked", "a-new.txt"});
  CHECK(start.exit_code == 12);
  CHECK(start.Json()["error"]["code"] == "busy");
  CHECK(start.Json()["error"]["details"]["lock"] == lock);
  CHECK(start.Json()["error"]["message"].get<std::string>().find(lock) != std::string::npos);
  // The refused start had prepared its index row; the next writer undoes it.
  Run fsck = repo.Review({"fsck"});
  CHECK(FindingCodes(fsck.Json()) == std::vector<std::string>{"index_prepared", "ref_lock"});

  REQUIRE(unlink(lock.c_str()) == 0);
  Run retry = repo.Review({"start", "--untracked", "a-new.txt"});
  CHECK(retry.exit_code == 0);
  CHECK(retry.Json()["lineage"] == lineage);
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

}  // namespace gentle::testing::life
