// Incomplete entries (a lineage directory without a record) through the built CLI: `list` shows
// them as `incomplete` (from the index and from the files alone, with the same answer), every verb
// that needs the record answers `corrupted`, an interrupted `start` of this tool (a prepared index
// row) is undone by the next mutation, and residue with no index row (as the Go gentle-ai leaves
// it) stays until `review reclaim` retires it.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

// lineage -> state, in listing order.
std::vector<std::pair<std::string, std::string>> Listed(const LifecycleRepo& repo) {
  RunResult list = repo.Review({"list"});
  INFO(list.out << list.err);
  REQUIRE(list.exit_code == 0);
  std::vector<std::pair<std::string, std::string>> out;
  const Json listed = list.Json();
  for (const Json& entry : listed["lineages"]) out.emplace_back(entry["lineage"], entry["state"]);
  return out;
}

std::string StateOf(const LifecycleRepo& repo, const std::string& lineage) {
  for (const auto& [id, state] : Listed(repo)) {
    if (id == lineage) return state;
  }
  return "";
}

// The listed lineages in state `incomplete`.
std::vector<std::string> IncompleteIds(const LifecycleRepo& repo) {
  std::vector<std::string> out;
  for (const auto& [id, state] : Listed(repo)) {
    if (state == "incomplete") out.push_back(id);
  }
  return out;
}

// Exit code and error code of `status --lineage`.
std::pair<int, std::string> StatusCode(const LifecycleRepo& repo, const std::string& lineage) {
  RunResult run = repo.Review({"status", "--lineage", lineage});
  INFO(run.out << run.err);
  const Json out = run.Json();
  return {run.exit_code, out.contains("error") ? out["error"]["code"].get<std::string>() : ""};
}

std::vector<std::string> Verdict(const std::string& lineage) {
  return {"verdict", "--lineage", lineage,  "--verdict", "REQUEST_CHANGES", "--actor", "ana",
          "--role",  "reviewer",  "--body", "again"};
}

std::vector<std::string> Reclaim(const std::string& lineage) {
  return {"reclaim", "--lineage", lineage, "--reason", "crash residue", "--actor", "ops"};
}

void RemoveIndex(const LifecycleRepo& repo) {
  for (const char* suffix : {"", "-wal", "-shm"}) {
    const std::string path = repo.store_root() + "/index.sqlite" + suffix;
    REQUIRE((unlink(path.c_str()) == 0 || errno == ENOENT));
  }
}

}  // namespace

TEST_CASE("incomplete: list shows the entry and every reader of its record says corrupted") {
  LifecycleRepo repo;
  const std::string live = repo.StartNew()["lineage"];
  const std::string residue = "review-00000000000000e1";
  const std::string empty = "review-00000000000000e2";
  WriteFile(repo.store_root() + "/v2/" + residue + "/.atomic-x1", "partial");
  REQUIRE(mkdir((repo.store_root() + "/v2/" + empty).c_str(), 0755) == 0);
  const std::vector<std::pair<std::string, std::string>> expected = {
      {live, "reviewing"}, {residue, "incomplete"}, {empty, "incomplete"}};

  RunResult indexed = repo.Review({"list"});
  CHECK(Listed(repo) == expected);
  RunResult human = repo.Review({"list"}, {}, /*json=*/false);
  CHECK(human.out.find(residue + "  incomplete  -  -  0 path(s)\n") != std::string::npos);
  for (const std::string& id : {residue, empty}) {
    INFO(id);
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"status", "--lineage", id},
          std::vector<std::string>{"export-context", "--lineage", id},
          std::vector<std::string>{"verify", "--lineage", id}, Verdict(id)}) {
      INFO(Json(args).dump());
      RunResult run = repo.Review(args);
      CHECK(run.exit_code == 7);
      CHECK(run.Json()["error"]["code"] == "corrupted");
      CHECK(run.Json()["error"]["lineage"] == id);
      CHECK(run.Json()["error"]["details"]["directory"] == repo.store_root() + "/v2/" + id);
    }
  }
  // Without the index, from the files alone: the same listing, byte for byte.
  RemoveIndex(repo);
  CHECK(repo.Review({"list"}).out == indexed.out);
  CHECK(StatusCode(repo, residue) == std::pair<int, std::string>(7, "corrupted"));
}

TEST_CASE("incomplete: an interrupted start is undone by the next mutation") {
  LifecycleRepo repo;
  const std::string other = repo.StartNew()["lineage"];
  repo.Write("fresh.txt", "fresh\n");
  RunResult crashed = repo.Review({"start", "--untracked", "fresh.txt"},
                                  {{"GENTLE_FAULT_POINT", "start:lineage-dir"}});
  REQUIRE(crashed.exit_code == 86);
  const std::vector<std::string> incomplete = IncompleteIds(repo);
  REQUIRE(incomplete.size() == 1);
  const std::string lineage = incomplete[0];
  CHECK(StatusCode(repo, lineage) == std::pair<int, std::string>(7, "corrupted"));

  // A mutation of another lineage is a writer: its recovery undoes the interrupted start.
  RunResult verdict = repo.Review(Verdict(other));
  INFO(verdict.out << verdict.err);
  REQUIRE(verdict.exit_code == 0);
  CHECK(StateOf(repo, lineage).empty());
  CHECK(StatusCode(repo, lineage) == std::pair<int, std::string>(3, "not_found"));
  CHECK_FALSE(Exists(repo.store_root() + "/v2/" + lineage));
  CHECK(repo.Git({"for-each-ref", "refs/gentle-ai/reviews/" + lineage}).out.empty());
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

TEST_CASE("incomplete: reclaim of an interrupted start finds it undone by recovery") {
  LifecycleRepo repo;
  repo.StartNew();
  repo.Write("fresh.txt", "fresh\n");
  REQUIRE(repo.Review({"start", "--untracked", "fresh.txt"},
                      {{"GENTLE_FAULT_POINT", "start:lineage-dir"}})
              .exit_code == 86);
  const std::vector<std::string> incomplete = IncompleteIds(repo);
  REQUIRE(incomplete.size() == 1);
  RunResult reclaim = repo.Review(Reclaim(incomplete[0]));
  INFO(reclaim.out << reclaim.err);
  CHECK(reclaim.exit_code == 3);
  CHECK(reclaim.Json()["error"]["code"] == "not_found");
  CHECK_FALSE(Exists(repo.store_root() + "/quarantine"));
  RunResult fsck = repo.Review({"fsck"});
  INFO(fsck.out);
  CHECK(fsck.exit_code == 0);
}

TEST_CASE("incomplete: residue with no index row stays until review reclaim retires it") {
  LifecycleRepo repo;
  const std::string other = repo.StartNew()["lineage"];
  const std::string residue = "review-00000000000000e3";
  WriteFile(repo.store_root() + "/v2/" + residue + "/.atomic-go1", "partial");

  RunResult verdict = repo.Review(Verdict(other));
  INFO(verdict.out << verdict.err);
  REQUIRE(verdict.exit_code == 0);
  CHECK(Exists(repo.store_root() + "/v2/" + residue + "/.atomic-go1"));
  CHECK(StateOf(repo, residue) == "incomplete");
  CHECK(StatusCode(repo, residue) == std::pair<int, std::string>(7, "corrupted"));
  RunResult fsck = repo.Review({"fsck"});
  CHECK(fsck.exit_code == 7);
  CHECK(fsck.Json()["findings"][0]["code"] == "incomplete_entry");

  RunResult reclaim = repo.Review(Reclaim(residue));
  INFO(reclaim.out << reclaim.err);
  REQUIRE(reclaim.exit_code == 0);
  CHECK(StateOf(repo, residue) == "retired");
  CHECK(StatusCode(repo, residue) == std::pair<int, std::string>(5, "retired"));
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

TEST_CASE("incomplete: a lineage directory left by a burn past its record is consumed") {
  LifecycleRepo repo;
  auto approved = repo.StartApproved();
  REQUIRE(repo.Review({"burn", "--lineage", approved.lineage, "--token", approved.token,
                       "--expected-revision", approved.revision},
                      {{"GENTLE_FAULT_POINT", "burn:record-removed"}})
              .exit_code == 86);
  REQUIRE(Exists(repo.store_root() + "/v2/" + approved.lineage));
  // The tombstone outranks the directory: the burn took effect when the record went.
  CHECK(Listed(repo) ==
        std::vector<std::pair<std::string, std::string>>{{approved.lineage, "consumed"}});
  CHECK(StatusCode(repo, approved.lineage) == std::pair<int, std::string>(4, "consumed"));
  RunResult exported = repo.Review({"export-context", "--lineage", approved.lineage});
  CHECK(exported.exit_code == 4);
  CHECK(exported.Json()["error"]["code"] == "consumed");
  RemoveIndex(repo);
  CHECK(Listed(repo) ==
        std::vector<std::pair<std::string, std::string>>{{approved.lineage, "consumed"}});
}

}  // namespace gentle::testing
