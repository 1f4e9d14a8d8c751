// index.sqlite that is garbage or empty, and index.sqlite or a side file that is not a regular
// file. The files are the source of truth: a damaged index never changes what a reader answers
// (readers fall back to the files), and readers leave it untouched. A symlink, a directory or a
// FIFO at index.sqlite, -wal, -shm or -journal is a damaged store shape: every command refuses it
// as corrupted, at once, and opens nothing there (a FIFO would block an open).
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>

#include "tests/support/files.h"
#include "tests/support/hostile.h"

namespace gentle::testing {

TEST_CASE("a garbage index.sqlite does not change what readers answer") {
  StoreFixture f;
  const std::string index = f.root() + "/index.sqlite";
  std::vector<std::string> expected;
  auto all_readers = LineageReaders(f.lineage);
  all_readers.push_back({"review", "list"});
  all_readers.push_back({"review", "status"});
  for (const auto& args : all_readers) {
    expected.push_back(ExpectOutcome(args, f.repo, 0, "").dump());
  }
  for (const char* suffix : {"", "-wal", "-shm"}) {
    std::filesystem::remove(index + suffix);
  }
  SECTION("random bytes") {
    std::string garbage;
    for (int i = 0; i < 8192; ++i) garbage.push_back(static_cast<char>((i * 7919) % 251));
    WriteFile(index, garbage);
  }
  SECTION("a SQLite header followed by garbage") {
    WriteFile(index, std::string("SQLite format 3\0", 16) + std::string(4080, '\xa5'));
  }
  SECTION("empty file") { WriteFile(index, ""); }
  SECTION("stale -wal and -shm beside it") {
    WriteFile(index, "garbage");
    WriteFile(index + "-wal", "garbage wal");
    WriteFile(index + "-shm", "garbage shm");
  }
  for (size_t i = 0; i < all_readers.size(); ++i) {
    CHECK(ExpectOutcome(all_readers[i], f.repo, 0, "", {f.tmp.path()}).dump() == expected[i]);
  }
}

TEST_CASE("a symlinked index.sqlite is refused as corrupted by every reader") {
  StoreFixture f;
  const std::string index = f.root() + "/index.sqlite";
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(index + suffix);
  WriteFile(f.tmp.path() + "/outside.sqlite", "not a database");
  REQUIRE(symlink((f.tmp.path() + "/outside.sqlite").c_str(), index.c_str()) == 0);
  auto all_readers = LineageReaders(f.lineage);
  all_readers.push_back({"review", "list"});
  all_readers.push_back({"review", "status"});
  for (const auto& args : all_readers) {
    ExpectOutcome(args, f.repo, 7, "corrupted", {f.tmp.path()});
  }
}

namespace {

// Every command on a store whose `path` is not a regular file answers corrupted (7) and changes
// nothing (a writer may rewrite its lock files' owner records, which is the locking protocol).
void ExpectRefusedEverywhere(const StoreFixture& f, const std::string& path) {
  auto readers = LineageReaders(f.lineage);
  readers.push_back({"review", "status", "--lineage", "review-0000000000000000"});
  readers.push_back({"review", "list"});
  readers.push_back({"review", "status"});
  for (const auto& args : readers) ExpectOutcome(args, f.repo, 7, "corrupted", {f.tmp.path()});
  const std::vector<std::string> lock = {"gentle-ai/review-transactions/v2/LOCK",
                                         "gentle-ai/REVIEW-MAINTENANCE.lock"};
  ExpectOutcome({"review", "verdict", "--lineage", f.lineage, "--verdict", "REQUEST_CHANGES",
                 "--actor", "a", "--role", "reviewer", "--body", "b"},
                f.repo, 7, "corrupted", {f.tmp.path()}, lock);
  ExpectOutcome({"review", "index", "rebuild"}, f.repo, 7, "corrupted", {f.tmp.path()}, lock);

  // fsck refuses such a store as it refuses any symlinked store path, naming the path.
  auto fsck = ExpectOutcome({"review", "fsck"}, f.repo, 7, "corrupted", {f.tmp.path()});
  CHECK(fsck["error"]["message"].get<std::string>().find(path) != std::string::npos);
}

}  // namespace

TEST_CASE("a directory - FIFO or symlink at index.sqlite or a side file is corrupted for all") {
  StoreFixture f;
  const std::string index = f.root() + "/index.sqlite";
  const std::vector<std::string> paths = {index, index + "-wal", index + "-shm",
                                          index + "-journal"};
  std::map<std::string, std::string> original;
  for (const std::string& path : paths) {
    if (std::filesystem::is_regular_file(path)) original[path] = ReadFile(path);
  }
  REQUIRE(original.size() == 3);  // a writer leaves index.sqlite, -wal and -shm
  WriteFile(f.tmp.path() + "/outside", "not a database");
  std::string kind;
  SECTION("a directory") { kind = "a directory"; }
  SECTION("a FIFO") { kind = "a FIFO"; }
  SECTION("a symlink") { kind = "a symlink"; }
  for (const std::string& path : paths) {
    INFO(path << " is " << kind);
    for (const std::string& p : paths) std::filesystem::remove_all(p);
    for (const auto& [p, bytes] : original) WriteFile(p, bytes);
    std::filesystem::remove(path);
    if (kind == "a directory") {
      REQUIRE(mkdir(path.c_str(), 0700) == 0);
    } else if (kind == "a FIFO") {
      REQUIRE(mkfifo(path.c_str(), 0600) == 0);
    } else {
      REQUIRE(symlink((f.tmp.path() + "/outside").c_str(), path.c_str()) == 0);
    }
    ExpectRefusedEverywhere(f, path);
  }
}

}  // namespace gentle::testing
