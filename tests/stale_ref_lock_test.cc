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

#include "tests/support/files.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/strace_kill.h"

namespace gentle::testing {
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
  const std::vector<std::string> burn = {"burn",           "--lineage",    approved.lineage,
                                         "--token",        approved.token, "--expected-revision",
                                         approved.revision};
  RunResult killed = ReviewKilledAt(repo, burn, lock, "rename,renameat,renameat2", 1);
  REQUIRE(killed.exit_code == kKilledExit);
  REQUIRE(Exists(lock));

  // The burn never reached its history commit: the next writer undoes its prepared rows, the
  // lineage is still approved and its history unchanged; the lock stays, and fsck names it.
  repo.Write("other.txt", "other\n");
  RunResult start = repo.Review({"start", "--untracked", "other.txt"});
  REQUIRE(start.exit_code == 0);
  CHECK(repo.Review({"status", "--lineage", approved.lineage}).exit_code == 0);
  CHECK(repo.Git({"rev-parse", "refs/gentle-ai/reviews/" + approved.lineage}).out == tip);
  RunResult fsck = repo.Review({"fsck"});
  CHECK(fsck.exit_code != 0);
  CHECK(FindingCodes(fsck.Json()) == std::vector<std::string>{"ref_lock"});
  CHECK(fsck.Json()["findings"][0]["path"] == lock);
  // Writing the locked history is busy, with the lock's path, and changes nothing.
  RunResult busy = repo.Review(burn);
  CHECK(busy.exit_code == 12);
  CHECK(busy.Json()["error"]["details"]["lock"] == lock);

  // Removing the lock is the person's call; after it the burn goes through.
  REQUIRE(unlink(lock.c_str()) == 0);
  RunResult burned = repo.Review(burn);
  CHECK(burned.exit_code == 0);
  RunResult clean = repo.Review({"fsck"});
  CHECK(clean.exit_code == 0);
  CHECK(clean.Json()["clean"] == true);
}

TEST_CASE("writing a locked pin ref is busy with the lock's path - never internal") {
  LifecycleRepo repo;
  repo.Write("a-new.txt", "new\n");
  // The lineage id is derived from the candidate: learn it from a start, then undo it by hand.
  RunResult first = repo.Review({"start", "--untracked", "a-new.txt"});
  REQUIRE(first.exit_code == 0);
  const std::string lineage = first.Json()["lineage"];
  REQUIRE(repo.Review({"abandon", "--lineage", lineage, "--reason", "operator_disposition",
                       "--actor", "ops"})
              .exit_code == 0);
  REQUIRE(repo.Review({"store", "reset", "--yes"}).exit_code == 0);

  const std::string lock = PinPath(repo, lineage) + ".lock";
  WriteFile(lock, "");
  RunResult start = repo.Review({"start", "--untracked", "a-new.txt"});
  CHECK(start.exit_code == 12);
  CHECK(start.Json()["error"]["code"] == "busy");
  CHECK(start.Json()["error"]["details"]["lock"] == lock);
  CHECK(start.Json()["error"]["message"].get<std::string>().find(lock) != std::string::npos);
  // The refused start had prepared its index row; the next writer undoes it.
  RunResult fsck = repo.Review({"fsck"});
  CHECK(FindingCodes(fsck.Json()) == std::vector<std::string>{"index_prepared", "ref_lock"});

  REQUIRE(unlink(lock.c_str()) == 0);
  RunResult retry = repo.Review({"start", "--untracked", "a-new.txt"});
  CHECK(retry.exit_code == 0);
  CHECK(retry.Json()["lineage"] == lineage);
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

}  // namespace gentle::testing
