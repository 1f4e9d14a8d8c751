// Rebuilding index.sqlite (docs/index.md, "Rebuilding without a half-built index";
// docs/lifecycle.md, "review index rebuild"): a new index is built beside the old one and renamed
// into place, so a process killed anywhere in a rebuild never leaves a half-built index that
// readers would trust.
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/lifecycle_support.h"
#include "tests/strace_kill.h"

namespace gentle::testing {
using namespace life;  // tests/lifecycle_support.h
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

void RemoveIndex(const LifecycleRepo& repo) {
  for (const char* suffix : {"", "-wal", "-shm"}) {
    fs::remove(repo.store_root() + "/index.sqlite" + suffix);
  }
}

TEST_CASE(
    "index rebuild: a writer killed while rebuilding a missing index leaves no half-built one") {
  REQUIRE(StraceWorks());
  // The red team's reproduction: the writer is killed at its N-th openat of the tombstone
  // directory, which it lists while it rebuilds. Before the fix the new index was created empty
  // in place and filled afterwards, so a kill in between left an empty, valid index that the
  // next commands trusted (lineages missing from list, a burned lineage not_found).
  int killed = 0;
  for (int n = 1; n <= 8; ++n) {
    INFO("killed at openat " << n << " of terminal-consumption/v1");
    LifecycleRepo repo;
    const Answers answers = StartThreeKinds(repo);
    RemoveIndex(repo);
    repo.Write("fresh.txt", "fresh\n");
    Run run = ReviewKilledAt(repo, {"start", "--untracked", "fresh.txt"},
                             repo.store_root() + "/terminal-consumption/v1", "openat", n);
    INFO("start: exit " << run.exit_code << " " << run.out << run.err);
    if (run.exit_code == kKilledExit) {
      ++killed;
    } else {
      REQUIRE(run.exit_code == 0);
    }
    ExpectAnswers(repo, answers);
    repo.StartNew();  // the next writer
    Run fsck = repo.Review({"fsck"});
    INFO("fsck: " << fsck.out << fsck.err);
    CHECK(fsck.exit_code == 0);
    ExpectAnswers(repo, answers);
  }
  CHECK(killed >= 2);
}

TEST_CASE("index rebuild: review index rebuild killed at any fsync of the store root is safe") {
  REQUIRE(StraceWorks());
  // Every fsync of the store root directory: SQLite's own while it writes the new file, and
  // each durable step of the replacement (old file removed, side files removed, renamed).
  int killed = 0;
  for (int n = 1; n <= 8; ++n) {
    INFO("killed at fsync " << n << " of the store root");
    LifecycleRepo repo;
    const Answers answers = StartThreeKinds(repo);
    Run run = ReviewKilledAt(repo, {"index", "rebuild"}, repo.store_root(), "fsync", n);
    INFO("index rebuild: exit " << run.exit_code << " " << run.out << run.err);
    if (run.exit_code == kKilledExit) {
      ++killed;
    } else {
      REQUIRE(run.exit_code == 0);
    }
    ExpectAnswers(repo, answers);
    repo.StartNew();
    Run fsck = repo.Review({"fsck"});
    INFO("fsck: " << fsck.out << fsck.err);
    CHECK(fsck.exit_code == 0);
    ExpectAnswers(repo, answers);
    for (const auto& entry : fs::directory_iterator(repo.store_root())) {
      CHECK(entry.path().filename().string().rfind("index.sqlite.rebuild-", 0) != 0);
    }
  }
  CHECK(killed >= 3);
}

TEST_CASE("index rebuild: a -wal left beside a missing index is never applied to the new one") {
  REQUIRE(StraceWorks());
  // A -wal whose committed frames add a tombstone row for the live lineage, beside no
  // index.sqlite (a writer that died after the old file was removed). SQLite replays a -wal
  // whose checksums hold onto whatever database lies beside it, so if the new file ever took the
  // name while that -wal was still there, the live lineage would read `consumed`. Killed at each
  // fsync of the store root, and once not at all.
  for (int n = 0; n <= 6; ++n) {
    INFO("killed at fsync " << n << " of the store root (0: not killed)");
    LifecycleRepo repo;
    const Answers answers = StartThreeKinds(repo);
    const std::string index = repo.store_root() + "/index.sqlite";
    std::string stale_wal;
    {
      sqlite3* db = nullptr;
      REQUIRE(sqlite3_open_v2(index.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK);
      const std::string sql = "INSERT INTO tombstones VALUES ('" + std::string(64, 'e') + "', '" +
                              answers.front().first + "', 'sha256:" + std::string(64, '1') +
                              "', 'sha256:" + std::string(64, '2') + "', 'committed')";
      REQUIRE(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
      stale_wal = ReadFile(index + "-wal");
      sqlite3_close(db);
    }
    REQUIRE(stale_wal.size() > 32);
    RemoveIndex(repo);
    WriteFile(index + "-wal", stale_wal);

    Run run = n == 0 ? repo.Review({"index", "rebuild"})
                     : ReviewKilledAt(repo, {"index", "rebuild"}, repo.store_root(), "fsync", n);
    INFO("index rebuild: exit " << run.exit_code << " " << run.out << run.err);
    CHECK((run.exit_code == 0 || run.exit_code == kKilledExit));
    ExpectAnswers(repo, answers);
    repo.StartNew();
    Run fsck = repo.Review({"fsck"});
    INFO("fsck: " << fsck.out << fsck.err);
    CHECK(fsck.exit_code == 0);
    ExpectAnswers(repo, answers);
  }
}

}  // namespace
}  // namespace gentle::testing
