// Git ref locks under refs/gentle-ai/ (docs/lifecycle.md, "Stale ref locks"). A writer names each
// ref in its owner record (v2/LOCK) before libgit2 locks it, so a `<ref>.lock` left by a gentle-ai
// process that was killed holding it is removed by the next writer, whatever lineage that writer
// is about, with no hand repair. A lock gentle-ai did not record (a git command of the user's)
// stays, as git leaves it: fsck names it, writing that ref answers `busy` naming the lineage and
// the lock, and it never stops a writer of another lineage. The kills are real: `strace` injects
// SIGKILL at a system call on the lock file.
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

std::vector<std::string> Verdict(const std::string& lineage) {
  return {"verdict", "--lineage", lineage,    "--verdict", "REQUEST_CHANGES", "--actor",
          "ana",     "--role",    "reviewer", "--body",    "Fix it."};
}

}  // namespace

TEST_CASE("a burn killed holding its history ref lock: the next writer removes the lock") {
  REQUIRE(StraceWorks());
  LifecycleRepo repo;
  LifecycleRepo::Approved approved = repo.StartApproved();
  const std::string lock = PinPath(repo, approved.lineage) + ".lock";
  const std::string tip = repo.Git({"rev-parse", "refs/gentle-ai/reviews/" + approved.lineage}).out;
  const std::vector<std::string> burn = {"burn",           "--lineage",    approved.lineage,
                                         "--token",        approved.token, "--expected-revision",
                                         approved.revision};
  RunResult killed = ReviewKilledAt(repo, burn, lock, "rename,renameat,renameat2", 1);
  REQUIRE(killed.exit_code == kKilledExit);
  REQUIRE(Exists(lock));

  // fsck names the lock as a stopped gentle-ai writer's, for the next writer to remove.
  RunResult fsck = repo.Review({"fsck"});
  INFO(fsck.out << fsck.err << "LOCK: " << ReadFile(repo.store_root() + "/v2/LOCK"));
  CHECK(fsck.exit_code == 7);
  CHECK(fsck.Json()["live_writer"] == false);
  bool named = false;
  const nlohmann::json report = fsck.Json();  // alive while iterated
  for (const auto& finding : report["findings"]) {
    if (finding["code"] != "ref_lock") continue;
    named = true;
    CHECK(finding["path"] == lock);
    CHECK(finding["lineage"] == approved.lineage);
    CHECK(finding["message"] ==
          "a gentle-ai writer was stopped while holding this lock (the next writer removes it)");
  }
  CHECK(named);

  // The burn never reached its history commit: the next writer (another lineage's start) removes
  // the lock and undoes the prepared rows; the lineage is still approved, its history unchanged.
  repo.Write("other.txt", "other\n");
  RunResult start = repo.Review({"start", "--untracked", "other.txt"});
  INFO(start.out << start.err);
  REQUIRE(start.exit_code == 0);
  CHECK_FALSE(Exists(lock));
  CHECK(repo.Review({"status", "--lineage", approved.lineage}).exit_code == 0);
  CHECK(repo.Git({"rev-parse", "refs/gentle-ai/reviews/" + approved.lineage}).out == tip);
  ExpectFsckClean(repo);
  // No hand repair: the burn goes through.
  CHECK(repo.Review(burn).exit_code == 0);
  ExpectFsckClean(repo);
}

TEST_CASE("an import killed holding its ref lock wedges no writer - the next one removes it") {
  REQUIRE(StraceWorks());
  LifecycleRepo origin;
  const std::string imported = origin.StartNew()["lineage"];
  LifecycleRepo clone(LifecycleRepo::CloneOf{origin});
  const std::string local = clone.StartNew()["lineage"];
  RunResult fetched =
      clone.Git({"fetch", "-q", "origin",
                 "+refs/gentle-ai/reviews/*:refs/gentle-ai/remotes/origin/reviews/*"});
  REQUIRE(fetched.exit_code == 0);
  const std::string lock = PinPath(clone, imported) + ".lock";
  const std::vector<std::string> import = {"import", "--lineage", imported};
  std::string syscall = GENERATE(as<std::string>{}, "write", "fsync", "unlink,unlinkat");
  INFO("killed at the first " << syscall << " on the lock");
  RunResult killed = ReviewKilledAt(clone, import, lock, syscall, 1);
  REQUIRE(killed.exit_code == kKilledExit);
  REQUIRE(Exists(lock));

  SECTION("start of an unrelated candidate") {
    clone.Write("unrelated.txt", "unrelated\n");
    RunResult start = clone.Review({"start", "--untracked", "unrelated.txt"});
    INFO(start.out << start.err);
    CHECK(start.exit_code == 0);
  }
  SECTION("a verdict on another lineage") {
    RunResult verdict = clone.Review(Verdict(local));
    INFO(verdict.out << verdict.err);
    CHECK(verdict.exit_code == 0);
  }
  SECTION("repair") {
    RunResult repair = clone.Review({"repair"});
    INFO(repair.out << repair.err);
    CHECK(repair.exit_code == 0);
  }
  SECTION("index rebuild") {
    RunResult rebuild = clone.Review({"index", "rebuild"});
    INFO(rebuild.out << rebuild.err);
    CHECK(rebuild.exit_code == 0);
  }
  CHECK_FALSE(Exists(lock));
  // The interrupted import is finished or undone; importing again is up to date or imports.
  RunResult again = clone.Review(import);
  INFO(again.out << again.err);
  CHECK(again.exit_code == 0);
  CHECK(clone.Review({"status", "--lineage", imported}).Json()["lineages"][0]["state"] ==
        "reviewing");
  CHECK(clone.Git({"rev-parse", ReviewRef(imported)}).out ==
        origin.Git({"rev-parse", ReviewRef(imported)}).out);
  ExpectFsckClean(clone);
}

TEST_CASE("a ref lock gentle-ai did not record stays and blocks only its own lineage") {
  LifecycleRepo repo;
  const std::string locked = repo.StartNew()["lineage"];
  const std::string lock = PinPath(repo, locked) + ".lock";
  WriteFile(lock, "");

  // Writers of other lineages go through; the lock stays.
  repo.Write("unrelated.txt", "unrelated\n");
  RunResult start = repo.Review({"start", "--untracked", "unrelated.txt"});
  REQUIRE(start.exit_code == 0);
  const std::string other = start.Json()["lineage"];
  CHECK(repo.Review(Verdict(other)).exit_code == 0);
  CHECK(repo.Review({"repair"}).exit_code == 0);
  CHECK(repo.Review({"index", "rebuild"}).exit_code == 0);
  REQUIRE(Exists(lock));

  // fsck names it as someone else's; writing its ref is busy, naming the lineage and the lock.
  RunResult fsck = repo.Review({"fsck"});
  CHECK(fsck.exit_code == 7);
  REQUIRE(FindingCodes(fsck.Json()) == std::vector<std::string>{"ref_lock"});
  CHECK(fsck.Json()["findings"][0]["path"] == lock);
  CHECK(fsck.Json()["findings"][0]["lineage"] == locked);
  CHECK(fsck.Json()["findings"][0]["message"] ==
        "a ref is locked by a command other than gentle-ai (remove it if no git command is "
        "running)");
  const auto before = repo.StoreBytes();
  RunResult busy = repo.Review(Verdict(locked));
  CHECK(busy.exit_code == 12);
  CHECK(busy.Json()["error"]["code"] == "busy");
  CHECK(busy.Json()["error"]["lineage"] == locked);
  CHECK(busy.Json()["error"]["details"]["lock"] == lock);
  REQUIRE(Exists(lock));

  // Removing it is the person's call; after it the verdict goes through.
  REQUIRE(unlink(lock.c_str()) == 0);
  CHECK(repo.Review(Verdict(locked)).exit_code == 0);
  ExpectFsckClean(repo);
}

TEST_CASE("a lineage whose interrupted import holds a foreign lock never blocks another lineage") {
  REQUIRE(StraceWorks());
  LifecycleRepo origin;
  const std::string imported = origin.StartNew()["lineage"];
  LifecycleRepo clone(LifecycleRepo::CloneOf{origin});
  clone.StartNew();
  REQUIRE(clone
              .Git({"fetch", "-q", "origin",
                    "+refs/gentle-ai/reviews/*:refs/gentle-ai/remotes/origin/reviews/*"})
              .exit_code == 0);
  const std::string lock = PinPath(clone, imported) + ".lock";
  RunResult killed = ReviewKilledAt(clone, {"import", "--lineage", imported}, lock, "fsync", 1);
  REQUIRE(killed.exit_code == kKilledExit);
  // The owner record gone (as if the lock were a git command's): the import's prepared row waits
  // for the lock, and every other writer goes on.
  WriteFile(clone.store_root() + "/v2/LOCK", "");
  clone.Write("unrelated.txt", "unrelated\n");
  RunResult start = clone.Review({"start", "--untracked", "unrelated.txt"});
  INFO(start.out << start.err);
  CHECK(start.exit_code == 0);
  CHECK(Exists(lock));
  RunResult fsck = clone.Review({"fsck"});
  CHECK(FindingCodes(fsck.Json()) ==
        std::vector<std::string>{"index_prepared", "pin_missing", "ref_lock"});
  REQUIRE(unlink(lock.c_str()) == 0);
  clone.Write("next.txt", "next\n");
  CHECK(clone.Review({"start", "--untracked", "next.txt"}).exit_code == 0);
  ExpectFsckClean(clone);
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
  CHECK(start.Json()["error"]["lineage"] == lineage);
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
