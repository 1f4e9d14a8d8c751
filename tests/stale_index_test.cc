// The files are the truth, the index a cache (docs/index.md): when the index is behind the files
// (a copy of it taken before a burn or an abandon is put back, or another tool burned or retired
// the lineage), `status --lineage`, `export-context` and `list` answer from the tombstone or the
// audit record, as `start` already does for a burned candidate: `consumed` / `retired`, never
// `not_found` or the stale row's state. When the index has no row of the lineage at all (a copy
// older than the lineage), its history ref names the tombstone or audit record
// (store/history_evidence.h), and the mutations answer the same.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/support/files.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

namespace fs = std::filesystem;

// Copies index.sqlite and its side files aside, and puts the copy back.
struct IndexCopy {
  const LifecycleRepo& repo;
  std::string dir;
  IndexCopy(const LifecycleRepo& r, const std::string& name)
      : repo(r), dir(r.root() + "/../" + name) {
    fs::create_directories(dir);
    for (const char* side : {"", "-wal", "-shm"}) {
      fs::copy_file(repo.store_root() + "/index.sqlite" + side, dir + "/index.sqlite" + side,
                    fs::copy_options::overwrite_existing);
    }
  }
  void PutBack() const {
    for (const char* side : {"", "-wal", "-shm"}) {
      fs::copy_file(dir + "/index.sqlite" + side, repo.store_root() + "/index.sqlite" + side,
                    fs::copy_options::overwrite_existing);
    }
  }
};

// status --lineage and export-context answer `code` (exit `exit_code`) with `detail` = `path`,
// under --json and without; list shows the lineage once, with `standing`.
void ExpectFromFiles(const LifecycleRepo& repo, const std::string& lineage, const std::string& code,
                     int exit_code, const std::string& detail, const std::string& path,
                     const std::string& standing) {
  for (const char* verb : {"status", "export-context"}) {
    RunResult run = repo.Review({verb, "--lineage", lineage});
    INFO(verb << ": " << run.out << run.err);
    CHECK(run.exit_code == exit_code);
    CHECK(run.Json()["error"]["code"] == code);
    CHECK(run.Json()["error"]["lineage"] == lineage);
    CHECK(run.Json()["error"]["details"][detail] == path);
    RunResult text = repo.Review({verb, "--lineage", lineage}, {}, /*json=*/false);
    CHECK(text.exit_code == exit_code);
    CHECK(text.err.rfind("gentle-ai: " + code + ": ", 0) == 0);
  }
  RunResult list = repo.Review({"list"});
  INFO(list.out << list.err);
  REQUIRE(list.exit_code == 0);
  int seen = 0;
  const nlohmann::json report = list.Json();  // kept alive while its entries are iterated
  for (const auto& entry : report["lineages"]) {
    if (entry["lineage"] != lineage) continue;
    ++seen;
    CHECK(entry["state"] == standing);
  }
  CHECK(seen == 1);
}

TEST_CASE("stale index: a burned lineage the index still lists is consumed") {
  LifecycleRepo repo;
  LifecycleRepo::Approved approved = repo.StartApproved();
  const IndexCopy before(repo, "index-before-burn");
  RunResult burn = repo.Review({"burn", "--lineage", approved.lineage, "--token", approved.token,
                                "--expected-revision", approved.revision});
  INFO(burn.out << burn.err);
  REQUIRE(burn.exit_code == 0);
  const std::string tombstone = burn.Json()["tombstone"];
  before.PutBack();
  ExpectFromFiles(repo, approved.lineage, "consumed", 4, "tombstone", tombstone, "consumed");
}

TEST_CASE("stale index: an abandoned lineage the index still lists is retired") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  const IndexCopy before(repo, "index-before-abandon");
  RunResult abandon = repo.Review(
      {"abandon", "--lineage", lineage, "--reason", "operator_disposition", "--actor", "ops"});
  INFO(abandon.out << abandon.err);
  REQUIRE(abandon.exit_code == 0);
  const std::string audit = abandon.Json()["audit_record"];
  before.PutBack();
  ExpectFromFiles(repo, lineage, "retired", 5, "audit_record", audit, "retired");
}

// status --lineage, export-context and a verdict answer `code` (exit `exit_code`) with
// details[`detail`] == `path`, and change nothing.
void ExpectFromHistory(const LifecycleRepo& repo, const std::string& lineage,
                       const std::string& code, int exit_code, const std::string& detail,
                       const std::string& path) {
  const auto before = repo.StoreBytes();
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"status", "--lineage", lineage},
           {"export-context", "--lineage", lineage},
           {"verdict", "--lineage", lineage, "--verdict", "APPROVE", "--actor", "ana", "--role",
            "reviewer", "--body", "ok"}}) {
    RunResult run = repo.Review(args);
    INFO(args[0] << ": " << run.out << run.err);
    CHECK(run.exit_code == exit_code);
    CHECK(run.Json()["error"]["code"] == code);
    CHECK(run.Json()["error"]["lineage"] == lineage);
    CHECK(run.Json()["error"]["details"][detail] == path);
  }
  CHECK(repo.StoreBytes() == before);
}

TEST_CASE("stale index: a burned lineage the index never had a row of is consumed") {
  LifecycleRepo repo;
  repo.StartNew();  // the index exists, and knows another lineage only
  const IndexCopy older(repo, "index-before-start");
  LifecycleRepo::Approved approved = repo.StartApproved();
  RunResult burn = repo.Review({"burn", "--lineage", approved.lineage, "--token", approved.token,
                                "--expected-revision", approved.revision});
  INFO(burn.out << burn.err);
  REQUIRE(burn.exit_code == 0);
  const std::string tombstone = burn.Json()["tombstone"];
  older.PutBack();
  ExpectFromHistory(repo, approved.lineage, "consumed", 4, "tombstone", tombstone);
  // A lineage neither the index nor a history knows is still not_found.
  RunResult unknown = repo.Review({"status", "--lineage", "review-0000000000000000"});
  CHECK(unknown.exit_code == 3);
  CHECK(unknown.Json()["error"]["code"] == "not_found");
}

TEST_CASE("stale index: an abandoned lineage the index never had a row of is retired") {
  LifecycleRepo repo;
  repo.StartNew();
  const IndexCopy older(repo, "index-before-start-abandon");
  const std::string lineage = repo.StartNew()["lineage"];
  RunResult abandon = repo.Review(
      {"abandon", "--lineage", lineage, "--reason", "operator_disposition", "--actor", "ops"});
  INFO(abandon.out << abandon.err);
  REQUIRE(abandon.exit_code == 0);
  const std::string audit = abandon.Json()["audit_record"];
  older.PutBack();
  ExpectFromHistory(repo, lineage, "retired", 5, "audit_record", audit);
}

TEST_CASE("stale index: a history naming a tombstone of another lineage is corrupted") {
  LifecycleRepo repo;
  repo.StartNew();
  const IndexCopy older(repo, "index-before-two-burns");
  std::vector<std::string> tombstones;
  std::vector<std::string> lineages;
  for (int i = 0; i < 2; ++i) {
    LifecycleRepo::Approved approved = repo.StartApproved();
    RunResult burn = repo.Review({"burn", "--lineage", approved.lineage, "--token", approved.token,
                                  "--expected-revision", approved.revision});
    REQUIRE(burn.exit_code == 0);
    tombstones.push_back(burn.Json()["tombstone"]);
    lineages.push_back(approved.lineage);
  }
  older.PutBack();
  // The first lineage's tombstone file now holds the second's bytes.
  fs::copy_file(tombstones[1], tombstones[0], fs::copy_options::overwrite_existing);
  RunResult status = repo.Review({"status", "--lineage", lineages[0]});
  INFO(status.out << status.err);
  CHECK(status.exit_code == 7);
  CHECK(status.Json()["error"]["code"] == "corrupted");
}

}  // namespace
}  // namespace gentle::testing
