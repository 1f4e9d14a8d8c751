// A FIFO in place of a file the store reads (a record, a lock file, a tombstone, an audit record,
// git's index), of a file libgit2 opens (a history ref, packed-refs, a loose object) or of the
// --envelope, --body-file, --context, --ids-file or parse-comment argument: opening it must not
// wait for a writer that never comes. Every command answers at once with a code (Hostile() kills a
// hang, which fails the test), and nothing in .git changes.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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

// The loose object of the lineage's history tip.
std::string TipObjectPath(const StoreFixture& f) {
  RunResult tip = Run({"git", "rev-parse", "refs/gentle-ai/reviews/" + f.lineage}, f.repo);
  REQUIRE(tip.exit_code == 0);
  const std::string id = Trim(tip.out);
  return f.git() + "/objects/" + id.substr(0, 2) + "/" + id.substr(2);
}

// Where the FIFO is, and so who reads it: packed-refs and the other repository files
// (kRepositoryFile: the configuration, HEAD's branch, attributes, pack files) every command,
// before libgit2 opens the repository or reads any ref or object; the
// history ref and its tip object the commands that need the history. status, list,
// export-context and verify of a local lineage answer from its record (status and
// export-context read the history only for the round's context binding, as information), so
// they answer 0; fsck reports a history it cannot read as a finding.
enum class Fifo { kPackedRefs, kHistoryRef, kTipObject, kRepositoryFile };

// Every command answers within 10 s (a hang is killed and fails the case): `corrupted` (7) naming
// `fifo`, or as described above; nothing changes but what a writer's lock and a start's capture
// may (StartMayChange).
void ExpectNoHang(const StoreFixture& f, Fifo where, const std::string& fifo) {
  const bool history_only = where == Fifo::kHistoryRef || where == Fifo::kTipObject;
  const std::vector<std::string> may_change = StartMayChange(true);
  for (const auto& args :
       {std::vector<std::string>{"review", "status", "--lineage", f.lineage},
        std::vector<std::string>{"review", "list"},
        std::vector<std::string>{"review", "export-context", "--lineage", f.lineage},
        std::vector<std::string>{"review", "verify", "--lineage", f.lineage}}) {
    if (history_only) {
      ExpectOutcome(args, f.repo, 0, "", {}, may_change, 10);
    } else {
      nlohmann::json refused = ExpectOutcome(args, f.repo, 7, "corrupted", {}, may_change, 10);
      CHECK(refused["error"]["details"]["path"] == fifo);
    }
  }
  if (where == Fifo::kTipObject) {
    RunResult fsck = Hostile({"review", "fsck", "--json"}, f.repo, 10);
    INFO(fifo << "\n" << fsck.out << fsck.err);
    REQUIRE_FALSE(fsck.timed_out);
    CHECK(fsck.exit_code == 7);
    bool named = false;
    const nlohmann::json doc = nlohmann::json::parse(fsck.out);
    for (const auto& finding : doc["findings"]) {
      named |= finding["code"] == "history_corrupted" &&
               finding["message"].get<std::string>().find(fifo) != std::string::npos;
    }
    CHECK(named);
  } else {
    nlohmann::json refused =
        ExpectOutcome({"review", "fsck"}, f.repo, 7, "corrupted", {}, may_change, 10);
    CHECK(refused["error"]["details"]["path"] == fifo);
  }
  for (const auto& args :
       {std::vector<std::string>{"review", "verdict", "--lineage", f.lineage, "--verdict",
                                 "APPROVE", "--actor", "ana", "--role", "reviewer", "--body", "ok"},
        std::vector<std::string>{"review", "start"},
        std::vector<std::string>{"review", "index", "rebuild"}}) {
    // index rebuild opens the index before it reads the histories: SQLite's shared-memory file.
    std::vector<std::string> writer_may_change = may_change;
    writer_may_change.push_back("gentle-ai/review-transactions/index.sqlite-shm");
    nlohmann::json refused = ExpectOutcome(args, f.repo, 7, "corrupted", {}, writer_may_change, 10);
    CHECK(refused["error"]["details"]["path"] == fifo);
  }
}

}  // namespace

TEST_CASE("a FIFO at a history ref or packed-refs or a loose object never hangs a command") {
  StoreFixture f;
  SECTION("packed-refs") {
    const std::string packed = f.git() + "/packed-refs";
    REQUIRE(mkfifo(packed.c_str(), 0600) == 0);
    ExpectNoHang(f, Fifo::kPackedRefs, packed);
  }
  SECTION("the lineage's history ref") {
    const std::string ref = f.git() + "/refs/gentle-ai/reviews/" + f.lineage;
    ReplaceWithFifo(ref);
    ExpectNoHang(f, Fifo::kHistoryRef, ref);
  }
  SECTION("the loose object of the history's tip commit") {
    const std::string object = TipObjectPath(f);
    ReplaceWithFifo(object);
    ExpectNoHang(f, Fifo::kTipObject, object);
  }
}

// libgit2 opens these with a blocking open(2) too: the configuration when it opens the
// repository, the branch HEAD names when status, export-context and start resolve HEAD, the
// attributes when they hash a worktree file, a pack's index and the multi-pack-index when the
// object database loads or reads a pack (a .pack that is not a file made its objects look
// missing). Each hung every command that reached it; each is now refused at once.
TEST_CASE(
    "a FIFO at the config - HEAD's branch - an attributes file or a pack file hangs nothing") {
  struct Place {
    std::string name;
    bool packed;  // after git gc: every object in a pack
    std::string path;
  };
  const std::vector<Place> places = {
      {"config", false, ".git/config"},
      {"HEAD's branch", false, "HEAD"},
      {"info/attributes", false, ".git/info/attributes"},
      {".gitattributes", false, ".gitattributes"},
      {"commit-graph", false, ".git/objects/info/commit-graph"},
      {"multi-pack-index", true, ".git/objects/pack/multi-pack-index"},
      {"a pack's .idx", true, ".idx"},
      {"a .pack", true, ".pack"},
  };
  for (const Place& place : places) {
    INFO(place.name);
    StoreFixture f;
    RunResult branch = Run({"git", "symbolic-ref", "HEAD"}, f.repo);
    REQUIRE(branch.exit_code == 0);
    std::string path =
        f.repo + "/" + (place.path == "HEAD" ? ".git/" + Trim(branch.out) : place.path);
    if (place.packed) {
      REQUIRE(Run({"git", "gc", "-q"}, f.repo).exit_code == 0);
      if (place.path[0] == '.' && place.path[1] != 'g') {
        std::string found;
        for (const auto& entry : std::filesystem::directory_iterator(f.git() + "/objects/pack")) {
          const std::string name = entry.path().string();
          if (name.size() > place.path.size() &&
              name.compare(name.size() - place.path.size(), place.path.size(), place.path) == 0) {
            found = name;
          }
        }
        REQUIRE_FALSE(found.empty());
        path = found;
      }
    }
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    unlink(path.c_str());
    REQUIRE(mkfifo(path.c_str(), 0600) == 0);
    ExpectNoHang(f, Fifo::kRepositoryFile, path);
  }
}

// A subdirectory's .gitattributes is read when a file under it is hashed (start hashes every
// changed file it captures; status and export-context the files whose stat data does not settle
// it): the shared hashing step refuses it first. The commands that hash no worktree file never
// read it.
TEST_CASE("a FIFO as a subdirectory's .gitattributes hangs nothing") {
  StoreFixture f;
  std::filesystem::create_directories(f.repo + "/sub");
  WriteFile(f.repo + "/sub/s.txt", "s\n");
  REQUIRE(Run({"git", "add", "sub"}, f.repo).exit_code == 0);
  REQUIRE(Run({"git", "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "sub"}, f.repo)
              .exit_code == 0);
  WriteFile(f.repo + "/sub/s.txt", "u\n");  // the same size: only its hash tells
  const std::string fifo = f.repo + "/sub/.gitattributes";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const std::vector<std::string> may_change = StartMayChange(true);
  nlohmann::json refused =
      ExpectOutcome({"review", "start"}, f.repo, 7, "corrupted", {}, may_change, 10);
  CHECK(refused["error"]["details"]["path"] == fifo);
  for (const auto& args : {std::vector<std::string>{"review", "list"},
                           std::vector<std::string>{"review", "verify", "--lineage", f.lineage}}) {
    ExpectOutcome(args, f.repo, 0, "", {}, may_change, 10);
  }
}

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

TEST_CASE("a FIFO - a directory or an oversized file as --body-file is usage at once") {
  StoreFixture f;
  const std::string fifo = f.tmp.path() + "/body.fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const std::string big = f.tmp.path() + "/body.md";
  WriteFile(big, std::string((1u << 20) + 1, 'x'));
  struct Refusal {
    std::string file, reason;
  };
  for (const Refusal& r : std::vector<Refusal>{{fifo, "not a regular file"},
                                               {f.tmp.path(), "not a regular file"},
                                               {big, "larger than 1048576 bytes"}}) {
    nlohmann::json refused =
        ExpectOutcome({"review", "verdict", "--lineage", f.lineage, "--verdict", "APPROVE",
                       "--actor", "ana", "--role", "reviewer", "--body-file", r.file},
                      f.repo, 2, "usage");
    CHECK(refused["error"]["message"] == "--body-file " + r.file + ": " + r.reason);
    CHECK(refused["error"]["details"]["file"] == r.file);
  }
  // A body of exactly 1 MiB is taken.
  WriteFile(big, std::string(1u << 20, 'x'));
  ExpectOutcome({"review", "verdict", "--lineage", f.lineage, "--verdict", "APPROVE", "--actor",
                 "ana", "--role", "reviewer", "--body-file", big},
                f.repo, 0, "", {}, {""});
}

TEST_CASE("a FIFO or a directory as a seen or parse-comment input file is usage at once") {
  StoreFixture f;
  const std::string fifo = f.tmp.path() + "/input.fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const std::string pr = "github:acme/webapp#47";
  for (const std::string& file : {fifo, f.tmp.path()}) {
    INFO(file);
    nlohmann::json context = ExpectOutcome({"review", "seen", "new", "--pr", pr, "--context", file},
                                           f.repo, 2, "usage", {}, {}, 10);
    CHECK(context["error"]["message"] == "context " + file + ": not a regular file");
    CHECK(context["error"]["details"]["file"] == file);
    nlohmann::json ids = ExpectOutcome({"review", "seen", "add", "--pr", pr, "--ids-file", file},
                                       f.repo, 2, "usage", {}, {}, 10);
    CHECK(ids["error"]["message"] == "--ids-file " + file + ": not a regular file");
    nlohmann::json comment =
        ExpectOutcome({"review", "parse-comment", file}, f.repo, 2, "usage", {}, {}, 10);
    CHECK(comment["error"]["message"] == "cannot read " + file + ": not a regular file");
  }
}

}  // namespace gentle::testing
