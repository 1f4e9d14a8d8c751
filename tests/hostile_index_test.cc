// index.sqlite that is garbage, empty, a directory or a symlink. The files are the source of truth:
// a damaged index never changes what a reader answers (readers fall back to the files), and readers
// leave it untouched; a symlinked index is a damaged store shape and is refused as corrupted.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/hostile_support.h"

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
  SECTION("a directory") { REQUIRE(mkdir(index.c_str(), 0700) == 0); }
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

}  // namespace gentle::testing
