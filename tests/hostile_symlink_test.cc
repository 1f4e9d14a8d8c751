// A store path component replaced, between two commands, by a symlink to a copy outside the
// repository: the v2 dir, the lineage dir, review-state.json, the terminal-consumption dir (and its
// v1 dir), the quarantine dir (and one quarantine entry). The copy would make every read succeed if
// the link were followed, so a refusal proves the link itself was refused. Every record reader and
// start are run; each gives `corrupted` (exit 7), .git and the outside copy stay byte-identical.
// (A symlinked gentle-ai/ dir before the first start is covered in status_list_test.cc.)
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "store/digests.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/hostile.h"

namespace gentle::testing {
namespace {

// Moves `path` to `outside` and puts a symlink to it in its place.
void SwapForSymlink(const std::string& path, const std::string& outside) {
  REQUIRE(rename(path.c_str(), outside.c_str()) == 0);
  REQUIRE(symlink(outside.c_str(), path.c_str()) == 0);
}

void ExpectAllReadersRefuse(const StoreFixture& f, const std::string& outside) {
  for (const auto& args : LineageReaders(f.lineage)) {
    ExpectOutcome(args, f.repo, 7, "corrupted", {outside});
  }
}

}  // namespace

TEST_CASE("symlinked v2 dir: every reader and start are corrupted") {
  StoreFixture f;
  ExpectOutcome({"review", "status", "--lineage", f.lineage}, f.repo, 0, "");  // first command
  const std::string outside = f.tmp.path() + "/outside";
  SwapForSymlink(f.v2(), outside);
  ExpectAllReadersRefuse(f, outside);
  ExpectOutcome({"review", "list"}, f.repo, 7, "corrupted", {outside});
  ExpectOutcome({"review", "status"}, f.repo, 7, "corrupted", {outside});
  WriteFile(f.repo + "/a.txt", "another candidate\n");
  ExpectOutcome({"review", "start"}, f.repo, 7, "corrupted", {outside});
}

TEST_CASE("symlinked lineage dir: readers are corrupted - status and fsck report it") {
  StoreFixture f;
  const std::string outside = f.tmp.path() + "/outside";
  SwapForSymlink(f.lineage_dir(), outside);
  ExpectAllReadersRefuse(f, outside);
  auto list = ExpectOutcome({"review", "list"}, f.repo, 0, "", {outside});
  REQUIRE(list["lineages"].size() == 1);
  CHECK(list["lineages"][0]["lineage"] == f.lineage);
  ExpectFsckFinding(f.repo, f.lineage);
  auto status = ExpectOutcome({"review", "status"}, f.repo, 0, "", {outside});
  REQUIRE(status["lineages"].size() == 1);
  CHECK(status["lineages"][0]["applicability"] == "corrupted");
  // Start of the same candidate must not write through the link.
  ExpectOutcome({"review", "start"}, f.repo, 7, "corrupted", {outside}, StartMayChange(false));
}

TEST_CASE("symlinked review-state.json: readers are corrupted - start does not overwrite it") {
  StoreFixture f;
  const std::string outside = f.tmp.path() + "/outside.json";
  SwapForSymlink(f.record_path(), outside);
  ExpectAllReadersRefuse(f, outside);
  auto list = ExpectOutcome({"review", "list"}, f.repo, 0, "", {outside});
  REQUIRE(list["lineages"].size() == 1);
  ExpectFsckFinding(f.repo, f.lineage);
  ExpectOutcome({"review", "start"}, f.repo, 7, "corrupted", {outside}, StartMayChange(false));
}

namespace {

// Burns f.lineage by hand (tombstone written, record and its directory removed), the layout the
// lifecycle's burn leaves; returns the tombstone directory.
std::string BurnByHand(const StoreFixture& f) {
  auto record = nlohmann::json::parse(ReadFile(f.record_path()));
  const std::string target = record["state"]["current_snapshot"]["identity"];
  const std::string repo_key = store::RepoKey(f.repo);
  const std::string dir = f.root() + "/terminal-consumption/v1";
  std::filesystem::create_directories(dir);
  WriteFile(dir + "/" + store::TombstoneFileName(repo_key, target),
            "{\"schema\":\"gentle-ai.review-terminal-consumption/v1\",\"repository\":\"" +
                repo_key + "\",\"target\":\"" + target + "\",\"lineage\":\"" + f.lineage + "\"}");
  std::filesystem::remove_all(f.lineage_dir());
  // The index learns of the hand-made tombstone the way it learns of a Go-written one.
  REQUIRE(GentleAi({"review", "index", "rebuild"}, f.repo).exit_code == 0);
  return dir;
}

// Abandons f.lineage by hand (moved to quarantine with a committed audit record); returns the
// quarantine entry directory.
std::string AbandonByHand(const StoreFixture& f) {
  const std::string entry = f.root() + "/quarantine/" + f.lineage + "-123456";
  std::filesystem::create_directories(entry);
  REQUIRE(rename(f.lineage_dir().c_str(), (entry + "/residue").c_str()) == 0);
  WriteFile(entry + "/reclaim-record.json",
            "{\n  \"schema\": \"gentle-ai.review-reclaim-record/v1\",\n  \"status\": "
            "\"committed\",\n  \"lineage_id\": \"" +
                f.lineage + "\",\n  \"reason\": \"operator_disposition\"\n}\n");
  // The index learns of the hand-made entry the way it learns of a Go-written one.
  REQUIRE(GentleAi({"review", "index", "rebuild"}, f.repo).exit_code == 0);
  return entry;
}

}  // namespace

TEST_CASE("symlinked terminal-consumption dir: a burned lineage is corrupted - not consumed") {
  StoreFixture f;
  BurnByHand(f);
  for (const auto& args : LineageReaders(f.lineage)) ExpectOutcome(args, f.repo, 4, "consumed");
  SECTION("terminal-consumption/") {
    const std::string outside = f.tmp.path() + "/outside";
    SwapForSymlink(f.root() + "/terminal-consumption", outside);
    ExpectAllReadersRefuse(f, outside);
  }
  SECTION("terminal-consumption/v1/") {
    const std::string outside = f.tmp.path() + "/outside";
    SwapForSymlink(f.root() + "/terminal-consumption/v1", outside);
    ExpectAllReadersRefuse(f, outside);
  }
  SECTION("the tombstone file itself") {
    const std::string dir = f.root() + "/terminal-consumption/v1";
    const std::string name = std::filesystem::directory_iterator(dir)->path().filename();
    const std::string outside = f.tmp.path() + "/outside.json";
    SwapForSymlink(dir + "/" + name, outside);
    ExpectAllReadersRefuse(f, outside);
  }
}

TEST_CASE("symlinked quarantine: an abandoned lineage is corrupted - not retired") {
  StoreFixture f;
  const std::string entry = AbandonByHand(f);
  for (const auto& args : LineageReaders(f.lineage)) ExpectOutcome(args, f.repo, 5, "retired");
  SECTION("quarantine/") {
    const std::string outside = f.tmp.path() + "/outside";
    SwapForSymlink(f.root() + "/quarantine", outside);
    ExpectAllReadersRefuse(f, outside);
  }
  SECTION("one quarantine entry") {
    const std::string outside = f.tmp.path() + "/outside";
    SwapForSymlink(entry, outside);
    ExpectAllReadersRefuse(f, outside);
  }
  SECTION("the audit record itself") {
    const std::string outside = f.tmp.path() + "/outside.json";
    SwapForSymlink(entry + "/reclaim-record.json", outside);
    ExpectAllReadersRefuse(f, outside);
  }
}

}  // namespace gentle::testing
