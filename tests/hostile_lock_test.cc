// Lock files that are directories (or symlinks), for the record readers, list and start. Readers
// do not take v2/LOCK, so a directory there does not concern them (they succeed, nothing changes);
// the maintenance lock is taken shared by every command, so a directory or a symlink there is
// `corrupted` for all of them, never a hang. (start against a v2/LOCK directory is covered in
// status_list_test.cc.)
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/files.h"
#include "tests/support/hostile.h"

namespace gentle::testing {

TEST_CASE("v2/LOCK as a directory: readers still read - nothing changes") {
  StoreFixture f;
  const std::string lock = f.v2() + "/LOCK";
  std::filesystem::remove(lock);
  REQUIRE(mkdir(lock.c_str(), 0700) == 0);
  for (const auto& args : LineageReaders(f.lineage)) ExpectOutcome(args, f.repo, 0, "");
  ExpectOutcome({"review", "list"}, f.repo, 0, "");
  ExpectOutcome({"review", "status"}, f.repo, 0, "");
}

TEST_CASE("the maintenance lock as a directory or a symlink is corrupted for every command") {
  StoreFixture f;
  const std::string lock = f.git() + "/gentle-ai/REVIEW-MAINTENANCE.lock";
  const std::string outside = f.tmp.path() + "/outside.lock";
  std::filesystem::remove(lock);
  SECTION("directory") { REQUIRE(mkdir(lock.c_str(), 0700) == 0); }
  SECTION("symlink to a file outside") {
    WriteFile(outside, "");
    REQUIRE(symlink(outside.c_str(), lock.c_str()) == 0);
  }
  for (const auto& args : LineageReaders(f.lineage)) {
    ExpectOutcome(args, f.repo, 7, "corrupted", {f.tmp.path()});
  }
  ExpectOutcome({"review", "list"}, f.repo, 7, "corrupted");
  ExpectOutcome({"review", "status"}, f.repo, 7, "corrupted");
  WriteFile(f.repo + "/a.txt", "another candidate\n");
  ExpectOutcome({"review", "start"}, f.repo, 7, "corrupted");
}

}  // namespace gentle::testing
