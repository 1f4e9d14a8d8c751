// Stores written by the Go gentle-ai (fixtures/gostore): status, list, fsck and index rebuild read
// them without an index and without writing; mutations honour their records (extra fields kept,
// gentle-ai's plain approval token accepted, historical-compat records read_only).
// export-context exports the live Go record byte-identically to the pinned git CLI and classifies
// the rest (historical read_only, burned consumed, abandoned retired), writing nothing.
#include <catch2/catch.hpp>
#include <set>

#include "export/git_flags.h"
#include "store/record.h"
#include "tests/support/files.h"
#include "tests/support/go_store.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

TEST_CASE("gostore: status reads every entry of a Go-written store and writes nothing") {
  LifecycleRepo repo;
  GoStore g = BuildGoStore(repo);
  auto before = repo.StoreBytes();

  RunResult live = repo.Review({"status", "--lineage", g.live});
  INFO(live.out << live.err);
  REQUIRE(live.exit_code == 0);
  CHECK(live.Json()["lineages"][0]["state"] == "reviewing");
  CHECK(live.Json()["lineages"][0]["kind"] == "commit-range");
  RunResult approved = repo.Review({"status", "--lineage", g.approved});
  REQUIRE(approved.exit_code == 0);
  // HEAD is the last commit, so the approved lineage's recorded range is not the live one.
  CHECK(approved.Json()["lineages"][0]["state"] == "approved");
  CHECK(repo.Review({"status", "--lineage", g.historical}).exit_code == 0);

  RunResult burned = repo.Review({"status", "--lineage", g.burned});
  CHECK(burned.exit_code == 4);
  CHECK(burned.Json()["error"]["code"] == "consumed");
  CHECK(burned.Json()["error"]["details"]["tombstone"] == g.tombstone);
  RunResult abandoned = repo.Review({"status", "--lineage", g.abandoned});
  CHECK(abandoned.exit_code == 5);
  CHECK(abandoned.Json()["error"]["details"]["audit_record"] == g.abandoned_audit);
  // A prepared audit record whose residue is in place counts (gentle-ai's rule).
  RunResult interrupted = repo.Review({"status", "--lineage", g.interrupted});
  CHECK(interrupted.exit_code == 5);
  CHECK(interrupted.Json()["error"]["details"]["audit_record"] == g.interrupted_audit);
  CHECK(repo.Review({"status", "--lineage", "review-9000000000000fff"}).exit_code == 3);

  RunResult all = repo.Review({"status"});
  REQUIRE(all.exit_code == 0);
  CHECK(all.Json()["lineages"].size() == 3);
  CHECK(repo.StoreBytes() == before);
  CHECK_FALSE(Exists(repo.store_root() + "/index.sqlite"));
}

TEST_CASE("gostore: export-context reads a Go-written store and writes nothing") {
  LifecycleRepo repo;
  GoStore g = BuildGoStore(repo);
  auto before = repo.StoreBytes();
  RunResult live = repo.Review({"export-context", "--lineage", g.live}, {}, /*json=*/false);
  INFO(live.out << live.err);
  REQUIRE(live.exit_code == 0);
  auto record = Json::parse(ReadFile(repo.store_root() + "/v2/" + g.live + "/review-state.json"));
  const auto& snapshot = record["state"]["initial_snapshot"];
  std::vector<std::string> oracle_args =
      exporter::OracleArgv(snapshot["base_tree"], snapshot["candidate_tree"]);
  oracle_args.erase(oracle_args.begin());  // repo.Git supplies "git"
  RunResult oracle = repo.Git(oracle_args);
  REQUIRE(oracle.exit_code == 0);
  CHECK(!live.out.empty());
  CHECK(live.out == oracle.out);
  CHECK(repo.Review({"export-context", "--lineage", g.historical}).Json()["error"]["code"] ==
        "read_only");
  CHECK(repo.Review({"export-context", "--lineage", g.burned}).Json()["error"]["code"] ==
        "consumed");
  CHECK(repo.Review({"export-context", "--lineage", g.abandoned}).Json()["error"]["code"] ==
        "retired");
  CHECK(repo.StoreBytes() == before);
}

TEST_CASE("gostore: list - fsck and index rebuild") {
  LifecycleRepo repo;
  GoStore g = BuildGoStore(repo);
  auto before = repo.StoreBytes();

  RunResult list = repo.Review({"list"});
  REQUIRE(list.exit_code == 0);
  CHECK(list.err.empty());
  std::map<std::string, std::string> states;
  const Json listed = list.Json();
  for (const auto& entry : listed["lineages"]) states[entry["lineage"]] = entry["state"];
  CHECK(states == std::map<std::string, std::string>{{g.live, "reviewing"},
                                                     {g.approved, "approved"},
                                                     {g.historical, "reviewing"},
                                                     {g.burned, "consumed"},
                                                     {g.abandoned, "retired"},
                                                     {g.interrupted, "retired"}});

  RunResult fsck = repo.Review({"fsck"});
  CHECK(fsck.exit_code == 7);
  std::multiset<std::string> codes;
  const Json report = fsck.Json();
  for (const auto& f : report["findings"]) codes.insert(f["code"]);
  CHECK(codes == std::multiset<std::string>{"quarantine_prepared", "index_missing", "pin_missing",
                                            "pin_missing", "pin_missing"});
  CHECK(repo.StoreBytes() == before);

  RunResult rebuild = repo.Review({"index", "rebuild"});
  INFO(rebuild.out << rebuild.err);
  REQUIRE(rebuild.exit_code == 0);
  const Json r = rebuild.Json();
  CHECK(r["lineages"] == 3);
  CHECK(r["tombstones"] == 1);
  CHECK(r["quarantine"] == 2);
  CHECK(r["repinned"] == 3);
  CHECK(r["recovered"] == 1);
  CHECK(Json::parse(ReadFile(g.interrupted_audit))["status"] == "committed");
  RunResult clean = repo.Review({"fsck"});
  INFO(clean.out);
  CHECK(clean.exit_code == 0);
  // The index answers exactly what the files answered.
  CHECK(repo.Review({"list"}).out == list.out);
  // The records themselves were not rewritten.
  const std::string record = repo.store_root() + "/v2/" + g.live + "/review-state.json";
  CHECK(before.at("review-transactions/v2/" + g.live + "/review-state.json") ==
        repo.StoreBytes().at("review-transactions/v2/" + g.live + "/review-state.json"));
  (void)record;
}

TEST_CASE("gostore: mutations keep Go fields - accept gentle-ai's token - refuse historical") {
  LifecycleRepo repo;
  GoStore g = BuildGoStore(repo);
  const std::string path = repo.store_root() + "/v2/" + g.live + "/review-state.json";
  auto original = store::ParseRecordFile(ReadFile(path), g.live);
  REQUIRE(original.ok());
  const auto before = nlohmann::ordered_json::parse(original->compact_state);

  RunResult verdict = repo.Review({"verdict", "--lineage", g.live, "--verdict", "REQUEST_CHANGES",
                                   "--actor", "ana", "--role", "reviewer", "--body", "fix it",
                                   "--expected-revision", original->revision});
  INFO(verdict.out << verdict.err);
  REQUIRE(verdict.exit_code == 0);
  // The store had no index: the first writer builds one, saying so once.
  CHECK(verdict.err ==
        "gentle-ai: notice: index.sqlite was missing; rebuilding it from the files\n");
  auto after = store::ParseRecordFile(ReadFile(path), g.live);
  REQUIRE(after.ok());
  const auto state = nlohmann::ordered_json::parse(after->compact_state);
  for (const auto& item : before.items()) {
    if (item.key() == "state") continue;
    INFO(item.key());
    CHECK(state.at(item.key()).dump() == item.value().dump());
  }
  CHECK(state["state"] == "correction_required");
  CHECK_FALSE(state.contains("verdict_history"));  // gentle-ai has no such member
  // The lineage had no history: a sync commit of the Go record, then the verdict.
  CHECK(repo.Git({"log", "--format=%s", "refs/gentle-ai/reviews/" + g.live}).out ==
        "verdict " + g.live + "\nsync " + g.live + "\n");

  for (const auto& args : std::vector<std::vector<std::string>>{
           {"verdict", "--lineage", g.historical, "--verdict", "APPROVE", "--actor", "a", "--role",
            "reviewer", "--body", "b"},
           {"abandon", "--lineage", g.historical, "--reason", "retired_schema", "--actor", "a"},
           {"invalidate", "--lineage", g.historical, "--reason", "r", "--actor", "a"}}) {
    auto bytes = repo.StoreBytes();
    RunResult refused = repo.Review(args);
    CHECK(refused.exit_code == 6);
    CHECK(refused.Json()["error"]["code"] == "read_only");
    CHECK(repo.StoreBytes() == bytes);
  }

  auto approved = store::ParseRecordFile(
      ReadFile(repo.store_root() + "/v2/" + g.approved + "/review-state.json"), g.approved);
  REQUIRE(approved.ok());
  RunResult burn = repo.Review({"burn", "--lineage", g.approved, "--token", g.approved_token,
                                "--expected-revision", approved->revision});
  INFO(burn.out << burn.err);
  REQUIRE(burn.exit_code == 0);
  // The record's initial_atomic_start names this worktree: the tombstone is keyed by its root.
  CHECK(burn.Json()["original_worktree"] == true);
  CHECK(repo.Review({"status", "--lineage", g.approved}).exit_code == 4);

  RunResult abandon = repo.Review(
      {"abandon", "--lineage", g.live, "--reason", "operator_disposition", "--actor", "ops"});
  REQUIRE(abandon.exit_code == 0);
  const Json audit = Json::parse(ReadFile(abandon.Json()["audit_record"]));
  CHECK(audit["residue"] == Json::array({"review-state.json", "reviewer-results"}));
  CHECK(repo.Review({"status", "--lineage", g.live}).exit_code == 5);
  RunResult fsck = repo.Review({"fsck"});
  INFO(fsck.out);
  // The first writer also finished the interrupted Go quarantine entry; only the historical
  // record's missing pin remains (pins are restored by index rebuild, not by other writers).
  CHECK(Json::parse(ReadFile(g.interrupted_audit))["status"] == "committed");
  const Json report = fsck.Json();
  REQUIRE(report["findings"].size() == 1);
  CHECK(report["findings"][0]["code"] == "pin_missing");
  CHECK(report["findings"][0]["lineage"] == g.historical);
}

}  // namespace
}  // namespace gentle::testing
