// A FIFO in place of a file the store reads (a record, a lock file, a tombstone, an audit record,
// git's index) or of the --envelope argument: opening it must not wait for a writer that never
// comes. Every command answers at once with a code (Hostile() kills a hang after 60 s, which fails
// the test), and nothing in .git changes.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/files.h"
#include "tests/support/hostile.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

void ReplaceWithFifo(const std::string& path) {
  REQUIRE(unlink(path.c_str()) == 0);
  REQUIRE(mkfifo(path.c_str(), 0600) == 0);
}

// Approves and burns `lineage`; returns the tombstone's path.
std::string Burn(const StoreFixture& f) {
  nlohmann::json approved =
      ExpectOutcome({"review", "verdict", "--lineage", f.lineage, "--verdict", "APPROVE", "--actor",
                     "ana", "--role", "reviewer", "--body", "ok"},
                    f.repo, 0, "", {}, {""});
  ExpectOutcome({"review", "burn", "--lineage", f.lineage, "--token", approved["token"],
                 "--expected-revision", approved["revision"]},
                f.repo, 0, "", {}, {""});
  RunResult consumed =
      Hostile({"review", "export-context", "--json", "--lineage", f.lineage}, f.repo);
  REQUIRE(consumed.exit_code == 4);
  return nlohmann::json::parse(consumed.out)["error"]["details"]["tombstone"];
}

}  // namespace

TEST_CASE("a FIFO in place of a record is corrupted for every reader and writer") {
  StoreFixture f;
  ReplaceWithFifo(f.record_path());
  for (const auto& args : LineageReaders(f.lineage)) ExpectOutcome(args, f.repo, 7, "corrupted");
  ExpectOutcome({"review", "verdict", "--lineage", f.lineage, "--verdict", "APPROVE", "--actor",
                 "ana", "--role", "reviewer", "--body", "ok"},
                f.repo, 7, "corrupted", {}, {"gentle-ai/review-transactions/v2/LOCK"});
}

TEST_CASE("a FIFO in place of a lock file is corrupted - not a hang") {
  for (const std::string lock :
       {"gentle-ai/REVIEW-MAINTENANCE.lock", "gentle-ai/review-transactions/v2/LOCK"}) {
    INFO(lock);
    StoreFixture f;
    ExpectOutcome({"review", "status", "--lineage", f.lineage}, f.repo, 0, "");
    const std::string path = f.git() + "/" + lock;
    if (access(path.c_str(), F_OK) != 0) WriteFile(path, "");
    ReplaceWithFifo(path);
    const int reader_exit = lock.find("MAINTENANCE") != std::string::npos ? 7 : 0;
    ExpectOutcome({"review", "status", "--lineage", f.lineage}, f.repo, reader_exit,
                  reader_exit ? "corrupted" : "");
    ExpectOutcome({"review", "verdict", "--lineage", f.lineage, "--verdict", "APPROVE", "--actor",
                   "ana", "--role", "reviewer", "--body", "ok"},
                  f.repo, 7, "corrupted");
  }
}

TEST_CASE("a FIFO in place of a tombstone is corrupted with or without the index") {
  StoreFixture f;
  const std::string tombstone = Burn(f);
  ReplaceWithFifo(tombstone);
  ExpectOutcome({"review", "export-context", "--lineage", f.lineage}, f.repo, 7, "corrupted");
  REQUIRE(unlink((f.root() + "/index.sqlite").c_str()) == 0);
  ExpectOutcome({"review", "export-context", "--lineage", f.lineage}, f.repo, 7, "corrupted");
  ExpectOutcome({"review", "status", "--lineage", f.lineage}, f.repo, 7, "corrupted");
}

TEST_CASE("a FIFO in place of an audit record is corrupted with or without the index") {
  StoreFixture f;
  ExpectOutcome({"review", "abandon", "--lineage", f.lineage, "--reason", "operator_disposition",
                 "--actor", "ops"},
                f.repo, 0, "", {}, {""});
  RunResult retired =
      Hostile({"review", "export-context", "--json", "--lineage", f.lineage}, f.repo);
  REQUIRE(retired.exit_code == 5);
  const std::string audit = nlohmann::json::parse(retired.out)["error"]["details"]["audit_record"];
  ReplaceWithFifo(audit);
  ExpectOutcome({"review", "export-context", "--lineage", f.lineage}, f.repo, 7, "corrupted");
  REQUIRE(unlink((f.root() + "/index.sqlite").c_str()) == 0);
  ExpectOutcome({"review", "export-context", "--lineage", f.lineage}, f.repo, 7, "corrupted");
}

TEST_CASE("a FIFO as git's index or as the --envelope file is refused at once") {
  StoreFixture f;
  ReplaceWithFifo(f.git() + "/index");
  RunResult status = Hostile({"review", "status", "--json", "--lineage", f.lineage}, f.repo);
  CHECK(status.exit_code != 124);
  CHECK(status.exit_code != 137);
  CHECK(status.exit_code >= 0);

  const std::string envelope = f.tmp.path() + "/envelope.json";
  REQUIRE(mkfifo(envelope.c_str(), 0600) == 0);
  nlohmann::json refused =
      ExpectOutcome({"review", "verify", "--envelope", envelope}, f.repo, 2, "usage");
  CHECK_THAT(refused["error"]["message"].get<std::string>(), Catch::Contains(envelope));
}

}  // namespace gentle::testing
