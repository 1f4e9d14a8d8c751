// What fsck reports for an index.sqlite that exists but cannot serve as this release's index
// (docs/index.md, "Who opens the index how"): a newer release's, a foreign database, a truncated
// file and one without its tables are each `index_corrupted` with `index_present: true`, also
// when the tool that left them (here a plain SQLite connection, as the sqlite3 shell is) removed
// the -wal and -shm on close; and a hot rollback journal beside the index is `index_corrupted`
// naming the journal, not `internal`. fsck creates nothing in any of these cases.
#include <sqlite3.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/support/files.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

// Runs `sql` on the index with a plain read-write connection, which (unlike this store's writers)
// removes -wal and -shm when it closes.
void Sql(const std::string& index, const std::string& sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(index.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK);
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  INFO((error != nullptr ? error : ""));
  sqlite3_free(error);
  CHECK(sqlite3_close(db) == SQLITE_OK);
  REQUIRE(rc == SQLITE_OK);
}

// fsck --json and plain: exit 7, exactly one finding, `index_corrupted` at `path` with `message`
// (or a message starting with `message` when `prefix`), index_present true, nothing written.
void ExpectIndexCorrupted(const LifecycleRepo& repo, const std::string& path,
                          const std::string& message, bool prefix = false) {
  const auto before = repo.StoreBytes();
  RunResult fsck = repo.Review({"fsck"});
  INFO(fsck.out << fsck.err);
  CHECK(fsck.exit_code == 7);
  const Json report = fsck.Json();
  CHECK(report["index_present"] == true);
  REQUIRE(report["findings"].size() == 1);
  CHECK(report["findings"][0]["code"] == "index_corrupted");
  CHECK(report["findings"][0]["path"] == path);
  const std::string said = report["findings"][0]["message"];
  if (prefix) {
    CHECK(said.rfind(message, 0) == 0);
  } else {
    CHECK(said == message);
  }
  RunResult text = repo.Review({"fsck"}, {}, /*json=*/false);
  CHECK(text.exit_code == 7);
  CHECK(text.out.find("index_corrupted") != std::string::npos);
  CHECK(repo.StoreBytes() == before);
}

TEST_CASE("index shapes: newer - foreign - truncated - table-less are index_corrupted") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  const std::string index = repo.store_root() + "/index.sqlite";
  namespace fs = std::filesystem;
  const std::string good = repo.root() + "/../index.good";
  fs::copy_file(index, good, fs::copy_options::overwrite_existing);
  auto restore = [&] {
    fs::copy_file(good, index, fs::copy_options::overwrite_existing);
    fs::remove(index + "-wal");
    fs::remove(index + "-shm");
  };

  SECTION("a newer release's") {
    Sql(index, "PRAGMA user_version = 2");
    ExpectIndexCorrupted(
        repo, index, "index from a newer release: schema_version 2, this release knows up to 1");
  }
  SECTION("a foreign database") {
    Sql(index, "PRAGMA application_id = 5");
    ExpectIndexCorrupted(repo, index, "index: a SQLite database that is not a gentle-ai index");
  }
  SECTION("without its tables") {
    Sql(index, "DROP TABLE lineages; DROP TABLE tombstones; DROP TABLE quarantine");
    ExpectIndexCorrupted(repo, index, "index: tables do not match schema_version 1: ", true);
  }
  SECTION("truncated to half, side files gone") {
    restore();
    REQUIRE(truncate(index.c_str(), static_cast<off_t>(fs::file_size(good) / 2)) == 0);
    ExpectIndexCorrupted(repo, index, "index: ", true);
  }
  SECTION("truncated to zero bytes") {
    REQUIRE(truncate(index.c_str(), 0) == 0);
    ExpectIndexCorrupted(repo, index,
                         "index.sqlite holds no index (index: schema_version 0 needs "
                         "initialisation by a read-write open): review index rebuild");
  }
  // Readers answer from the files meanwhile; the same index intact, side files gone, is clean.
  CHECK(repo.Review({"status", "--lineage", lineage}).exit_code == 0);
  restore();
  RunResult clean = repo.Review({"fsck"});
  INFO(clean.out);
  CHECK(clean.exit_code == 0);
  CHECK(clean.Json()["index_present"] == true);
  CHECK_FALSE(Exists(index + "-wal"));
}

TEST_CASE("index shapes: a hot rollback journal is index_corrupted naming it - never internal") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  const std::string journal = repo.store_root() + "/index.sqlite-journal";
  WriteFile(journal, std::string(512, 'j'));
  ExpectIndexCorrupted(repo, journal,
                       "a rollback journal beside the WAL index, which this store never writes; "
                       "readers answer from the files until the next writer or review index "
                       "rebuild removes it");
  RunResult status = repo.Review({"status", "--lineage", lineage});
  CHECK(status.exit_code == 0);
  CHECK(status.err ==
        "gentle-ai: notice: index.sqlite-journal is a rollback journal this store never writes; "
        "reading the files instead (the next mutation or `review index rebuild` removes it)\n");
  // The next writer's SQLite finds no valid journal header in it and deletes it.
  REQUIRE(repo.Review({"verdict", "--lineage", lineage, "--verdict", "REQUEST_CHANGES", "--actor",
                       "a", "--role", "reviewer", "--body", "b"})
              .exit_code == 0);
  CHECK_FALSE(Exists(journal));
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

TEST_CASE("index shapes: without an index file - index_present is false") {
  LifecycleRepo repo;
  repo.StartNew();
  std::filesystem::remove(repo.store_root() + "/index.sqlite");
  RunResult fsck = repo.Review({"fsck"});
  CHECK(fsck.exit_code == 7);
  CHECK(fsck.Json()["index_present"] == false);
  REQUIRE(fsck.Json()["findings"].size() == 1);
  CHECK(fsck.Json()["findings"][0]["code"] == "index_missing");
}

}  // namespace
}  // namespace gentle::testing
