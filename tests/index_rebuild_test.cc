// Rebuilding index.sqlite (docs/index.md, "Rebuilding without a half-built index";
// docs/lifecycle.md, "review index rebuild"): a new index is built beside the old one and renamed
// into place, so a process killed anywhere in a rebuild never leaves a half-built index that
// readers would trust; `review index rebuild` is the way out of an index from a newer release;
// a bare repository is refused.
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/strace_kill.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

void RemoveIndex(const LifecycleRepo& repo) {
  for (const char* suffix : {"", "-wal", "-shm"}) {
    fs::remove(repo.store_root() + "/index.sqlite" + suffix);
  }
}

// Sets PRAGMA user_version of the store's index, keeping its -wal and -shm (as our writers do).
void SetUserVersion(const LifecycleRepo& repo, int version) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2((repo.store_root() + "/index.sqlite").c_str(), &db, SQLITE_OPEN_READWRITE,
                          nullptr) == SQLITE_OK);
  int persist = 1;
  sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
  const std::string sql = "PRAGMA user_version = " + std::to_string(version);
  CHECK(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
}

int UserVersion(const LifecycleRepo& repo) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2((repo.store_root() + "/index.sqlite").c_str(), &db, SQLITE_OPEN_READONLY,
                          nullptr) == SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  int version = -1;
  if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, nullptr) == SQLITE_OK &&
      sqlite3_step(stmt) == SQLITE_ROW) {
    version = sqlite3_column_int(stmt, 0);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return version;
}

TEST_CASE(
    "index rebuild: a writer killed while rebuilding a missing index leaves no half-built one") {
  REQUIRE(StraceWorks());
  // The reproduction: the writer is killed at its N-th openat of the tombstone directory, which
  // it lists while it rebuilds. An index created empty in place and filled afterwards would leave,
  // after a kill in between, an empty, valid index that the next commands trusted (lineages
  // missing from list, a burned lineage not_found).
  int killed = 0;
  for (int n = 1; n <= 8; ++n) {
    INFO("killed at openat " << n << " of terminal-consumption/v1");
    LifecycleRepo repo;
    const Answers answers = StartThreeKinds(repo);
    RemoveIndex(repo);
    repo.Write("fresh.txt", "fresh\n");
    RunResult run = ReviewKilledAt(repo, {"start", "--untracked", "fresh.txt"},
                                   repo.store_root() + "/terminal-consumption/v1", "openat", n);
    INFO("start: exit " << run.exit_code << " " << run.out << run.err);
    if (run.exit_code == kKilledExit) {
      ++killed;
    } else {
      REQUIRE(run.exit_code == 0);
    }
    ExpectNextWriterRecovers(repo, answers);
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
    RunResult run = ReviewKilledAt(repo, {"index", "rebuild"}, repo.store_root(), "fsync", n);
    INFO("index rebuild: exit " << run.exit_code << " " << run.out << run.err);
    if (run.exit_code == kKilledExit) {
      ++killed;
    } else {
      REQUIRE(run.exit_code == 0);
    }
    ExpectNextWriterRecovers(repo, answers);
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

    RunResult run = n == 0
                        ? repo.Review({"index", "rebuild"})
                        : ReviewKilledAt(repo, {"index", "rebuild"}, repo.store_root(), "fsync", n);
    INFO("index rebuild: exit " << run.exit_code << " " << run.out << run.err);
    CHECK((run.exit_code == 0 || run.exit_code == kKilledExit));
    ExpectNextWriterRecovers(repo, answers);
  }
}

TEST_CASE("index rebuild: replaces an index from a newer release and says so") {
  LifecycleRepo repo;
  const Answers answers = StartThreeKinds(repo);
  const std::string live = answers.front().first;
  SetUserVersion(repo, 99);
  const std::string index_bytes = ReadFile(repo.store_root() + "/index.sqlite");

  // An ordinary writer refuses it (it is not damaged, and this release cannot read it) and names
  // the way out; it changes nothing.
  RunResult verdict = repo.Review({"verdict", "--lineage", live, "--verdict", "REQUEST_CHANGES",
                                   "--actor", "a", "--role", "reviewer", "--body", "b"});
  INFO(verdict.out << verdict.err);
  CHECK(verdict.exit_code == 7);
  const Json refusal = verdict.Json();
  CHECK(refusal["error"]["code"] == "corrupted");
  CHECK(refusal["error"]["details"]["schema_version"] == "99");
  CHECK(refusal["error"]["message"].get<std::string>().find("review index rebuild") !=
        std::string::npos);
  CHECK(ReadFile(repo.store_root() + "/index.sqlite") == index_bytes);
  // Readers answer from the files, with a notice naming the way out.
  RunResult status = repo.Review({"status", "--lineage", live});
  CHECK(status.exit_code == 0);
  CHECK(status.err.find("newer release") != std::string::npos);
  CHECK(status.err.find("review index rebuild") != std::string::npos);

  // `review index rebuild` is the explicit way out: it replaces the index and says so.
  RunResult rebuild = repo.Review({"index", "rebuild"});
  INFO(rebuild.out << rebuild.err);
  REQUIRE(rebuild.exit_code == 0);
  CHECK(rebuild.Json()["replaced_newer_schema_version"] == 99);
  CHECK(rebuild.Json()["lineages"] == 1);
  CHECK(rebuild.Json()["tombstones"] == 1);
  CHECK(rebuild.Json()["quarantine"] == 1);
  CHECK(UserVersion(repo) == 1);
  ExpectFsckClean(repo);
  ExpectAnswers(repo, answers);
  // A second rebuild has nothing newer to replace.
  CHECK(repo.Review({"index", "rebuild"}).Json()["replaced_newer_schema_version"].is_null());
  // The human output says it too.
  SetUserVersion(repo, 99);
  RunResult human = repo.Review({"index", "rebuild"}, {}, /*json=*/false);
  CHECK(human.exit_code == 0);
  CHECK(human.out.find("replaced an index from a newer release (schema_version 99)") !=
        std::string::npos);
  CHECK(repo.Review({"verdict", "--lineage", live, "--verdict", "REQUEST_CHANGES", "--actor", "a",
                     "--role", "reviewer", "--body", "b"})
            .exit_code == 0);
}

TEST_CASE("index rebuild: a bare repository is refused with usage and nothing is created") {
  TempDir dir;
  const std::string bare = dir.path() + "/bare.git";
  REQUIRE(GitRun(dir.path(), {"init", "-q", "--bare", bare}).exit_code == 0);
  for (bool json : {true, false}) {
    std::vector<std::string> args = {"review", "index", "rebuild", "--cwd", bare};
    if (json) args.push_back("--json");
    RunResult run = GentleAi(args, dir.path());
    INFO(run.out << run.err);
    CHECK(run.exit_code == 2);
    if (json) {
      CHECK(run.Json()["error"]["code"] == "usage");
    } else {
      CHECK(run.err.find("bare repository") != std::string::npos);
    }
    CHECK_FALSE(Exists(bare + "/gentle-ai"));
  }
}

}  // namespace
}  // namespace gentle::testing
