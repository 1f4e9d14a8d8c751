// Worktree-aware claims (docs/lifecycle.md) through the built CLI: the same candidate started in
// two linked worktrees is, in each worktree, that worktree's own lineage's `current_target`, and
// the other lineage reads `unrelated` there with a detail naming the other worktree; two lineages
// of one worktree (a forged copy, or a legacy record that names no worktree) claiming the live
// target are `ambiguous`. Each for `status`, `status --lineage` and the export envelope, with the
// index and with the files alone.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "store/record.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

constexpr char kForeign[] = "the same candidate was captured in another worktree";
constexpr char kAmbiguous[] = "more than one lineage claims the live target";

Json RunJson(const std::vector<std::string>& args, const std::string& cwd) {
  RunResult r = GentleAi(args, cwd);
  INFO("in " << cwd << ": " << Json(args).dump() << " -> " << r.exit_code << "\n"
             << r.out << r.err);
  REQUIRE(r.exit_code == 0);
  return Json::parse(r.out);
}

std::string Start(const std::string& cwd) {
  return RunJson({"review", "start", "--json"}, cwd)["lineage"];
}

std::string StoreRoot(const std::string& repo) {
  return repo + "/.git/gentle-ai/review-transactions";
}

// lineage -> its `review status --json` entry.
std::map<std::string, Json> StatusAll(const std::string& cwd) {
  std::map<std::string, Json> out;
  const Json status = RunJson({"review", "status", "--json"}, cwd);  // alive while iterated
  for (const Json& entry : status["lineages"]) out[entry["lineage"]] = entry;
  return out;
}

Json StatusOne(const std::string& cwd, const std::string& lineage) {
  Json status = RunJson({"review", "status", "--json", "--lineage", lineage}, cwd);
  REQUIRE(status["lineages"].size() == 1);
  return status["lineages"][0];
}

std::string EnvelopeApplicability(const std::string& cwd, const std::string& lineage) {
  return RunJson({"review", "export-context", "--json", "--lineage", lineage},
                 cwd)["applicability"];
}

// Readers answer from the files alone once the index is gone (they never create one).
void RemoveIndex(const std::string& repo) {
  for (const char* suffix : {"", "-wal", "-shm"}) {
    const std::string path = StoreRoot(repo) + "/index.sqlite" + suffix;
    REQUIRE((unlink(path.c_str()) == 0 || errno == ENOENT));
  }
}

// A copy of `lineage`'s record under `copy`, with its lineage fields renamed and its revision
// recomputed; `legacy` also drops initial_atomic_start, so the copy names no worktree.
void ForgeCopy(const std::string& repo, const std::string& lineage, const std::string& copy,
               bool legacy) {
  const std::string v2 = StoreRoot(repo) + "/v2/";
  auto record = store::ParseRecordFile(ReadFile(v2 + lineage + "/review-state.json"), lineage);
  REQUIRE(record.ok());
  auto state = nlohmann::ordered_json::parse(record->compact_state);
  state["lineage_id"] = copy;
  if (legacy) {
    state.erase("initial_atomic_start");
  } else {
    state["initial_atomic_start"]["lineage_id"] = copy;
  }
  std::string revision;
  WriteFile(v2 + copy + "/review-state.json", store::EncodeRecordFile(state, &revision));
  REQUIRE(store::ParseRecordFile(ReadFile(v2 + copy + "/review-state.json"), copy).ok());
}

// One worktree, its lineage and a second record claiming the same live target.
void ExpectAmbiguous(bool legacy) {
  TempDir tmp;
  const std::string repo = InitRepo(tmp.path());
  WriteFile(repo + "/a.txt", "claimed twice\n");
  const std::string lineage = Start(repo);
  const std::string copy = "review-00000000000000c1";
  ForgeCopy(repo, lineage, copy, legacy);
  // The index must know the copy, as it would after any writer: rebuild it from the files.
  RunJson({"review", "index", "rebuild", "--json"}, repo);

  for (const char* index : {"with the index", "from the files alone"}) {
    INFO(index);
    auto all = StatusAll(repo);
    REQUIRE(all.size() == 2);
    for (const std::string& id : {lineage, copy}) {
      INFO(id);
      CHECK(all[id]["applicability"] == "ambiguous");
      CHECK(all[id]["detail"] == kAmbiguous);
      Json one = StatusOne(repo, id);
      CHECK(one["applicability"] == "ambiguous");
      CHECK(one["detail"] == kAmbiguous);
      CHECK(EnvelopeApplicability(repo, id) == "ambiguous");
    }
    RemoveIndex(repo);
  }
}

}  // namespace

TEST_CASE("claims: the same candidate in two linked worktrees is current_target in its own") {
  TempDir tmp;
  const std::string main_wt = InitRepo(tmp.path());
  const std::string linked_wt = tmp.path() + "/linked";
  Git(main_wt, {"worktree", "add", "-q", linked_wt, "-b", "linked"});
  WriteFile(main_wt + "/a.txt", "the same candidate\n");
  WriteFile(linked_wt + "/a.txt", "the same candidate\n");
  const std::string main_lineage = Start(main_wt);
  const std::string linked_lineage = Start(linked_wt);
  REQUIRE(main_lineage != linked_lineage);

  struct View {
    std::string cwd, own, foreign;
  };
  for (const char* index : {"with the index", "from the files alone"}) {
    for (const View& v : {View{main_wt, main_lineage, linked_lineage},
                          View{linked_wt, linked_lineage, main_lineage}}) {
      INFO(index << ", in " << v.cwd);
      auto all = StatusAll(v.cwd);
      REQUIRE(all.size() == 2);
      CHECK(all[v.own]["applicability"] == "current_target");
      CHECK_FALSE(all[v.own].contains("detail"));
      CHECK(all[v.foreign]["applicability"] == "unrelated");
      CHECK(all[v.foreign]["detail"] == kForeign);
      // Same candidate: the foreign lineage's target is the live one; only its worktree differs.
      CHECK(all[v.foreign]["live_target_identity"] == all[v.foreign]["target_identity"]);

      Json own = StatusOne(v.cwd, v.own);
      CHECK(own["applicability"] == "current_target");
      CHECK_FALSE(own.contains("detail"));
      Json foreign = StatusOne(v.cwd, v.foreign);
      CHECK(foreign["applicability"] == "unrelated");
      CHECK(foreign["detail"] == kForeign);
      // The reviewer's next: a review does not depend on the worktree that captured it.
      RunResult human =
          GentleAi({"review", "status", "--lineage", v.foreign, "--role", "reviewer"}, v.cwd);
      CHECK(human.exit_code == 0);
      CHECK(human.out == v.foreign + "  reviewing  unrelated  (" + kForeign +
                             ")\nnext: export (review_due)  lineage " + v.foreign + "\n");

      CHECK(EnvelopeApplicability(v.cwd, v.own) == "current_target");
      CHECK(EnvelopeApplicability(v.cwd, v.foreign) == "unrelated");
    }
    RemoveIndex(main_wt);
  }
}

TEST_CASE("claims: two lineages of one worktree claiming the live target are ambiguous") {
  for (bool legacy : {false, true}) {
    INFO((legacy ? "the second record names no worktree" : "a forged copy from the same worktree"));
    ExpectAmbiguous(legacy);
  }
}

}  // namespace gentle::testing
