// The lifecycle verbs through the built CLI: every transition, every refusal (exact code and exit
// code), and for every refusal a proof that no byte of the store changed.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>

#include "store/digests.h"
#include "store/index/index_db.h"
#include "store/record.h"
#include "store/sha256.h"
#include "tests/support/files.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

std::vector<std::string> Verdict(const std::string& lineage, const std::string& verdict,
                                 const std::string& role = "reviewer") {
  return {"verdict", "--lineage", lineage, "--verdict", verdict,    "--actor",
          "ana",     "--role",    role,    "--body",    "body text"};
}

std::string Sha256Id(const std::string& text) { return "sha256:" + store::Sha256Hex(text); }

const std::string kZeroRevision = "sha256:" + std::string(64, '0');

TEST_CASE(
    "lifecycle: APPROVE moves reviewing to approved with a one-time token - kept as gentle-ai "
    "keeps it") {
  LifecycleRepo repo;
  Json started = repo.StartNew();
  const std::string lineage = started["lineage"];
  RunResult run = repo.Review(Verdict(lineage, "APPROVE"));
  REQUIRE(run.exit_code == 0);
  Json v = run.Json();
  CHECK(v["schema"] == "gentle-ai.review-verdict/v1");
  CHECK(v["state"] == "approved");
  CHECK(v["previous_state"] == "reviewing");
  CHECK(v["previous_revision"] == started["revision"]);
  CHECK(v["body_sha256"] == Sha256Id("body text"));
  const std::string token = v["token"];
  CHECK(token.size() == 64);
  Json state = repo.RecordState(lineage);
  CHECK(state["state"] == "approved");
  // The plain token, as gentle-ai keeps it (docs/format.md), and no member gentle-ai lacks.
  CHECK(state["approved_ack_token"] == token);
  CHECK_FALSE(state.contains("approved_ack_token_sha256"));
  CHECK_FALSE(state.contains("verdict_history"));
  // The verdict itself is in the history commit.
  const std::string verdict =
      repo.Git({"cat-file", "blob", "refs/gentle-ai/reviews/" + lineage + ":verdicts/1.md"}).out;
  CHECK(verdict.find("verdict: \"APPROVE\"\nactor: \"ana\"\nrole: \"reviewer\"\nat: \"" +
                     v["at"].get<std::string>() + "\"") != std::string::npos);
  CHECK(verdict.find("body_sha256: \"" + Sha256Id("body text") + "\"\n---\nbody text") !=
        std::string::npos);
  auto verified = store::ParseRecordFile(ReadFile(repo.record_path(lineage)), lineage);
  REQUIRE(verified.ok());
  CHECK(verified->revision == v["revision"]);
  Json list = repo.Review({"list"}).Json();
  CHECK(list["lineages"][0]["state"] == "approved");
  ExpectFsckClean(repo);
}

TEST_CASE("lifecycle: REQUEST_CHANGES - then APPROVE - NEEDS_DISCUSSION escalates") {
  LifecycleRepo repo;
  const std::string a = repo.StartNew()["lineage"];
  RunResult changes = repo.Review(Verdict(a, "REQUEST_CHANGES"));
  REQUIRE(changes.exit_code == 0);
  CHECK(changes.Json()["state"] == "correction_required");
  CHECK(changes.Json()["token"].is_null());
  RunResult approve = repo.Review(Verdict(a, "APPROVE"));
  REQUIRE(approve.exit_code == 0);
  CHECK(approve.Json()["previous_state"] == "correction_required");
  CHECK(repo.Git({"log", "--format=%s", "refs/gentle-ai/reviews/" + a}).out ==
        "verdict " + a + "\nverdict " + a + "\nstart " + a + "\n");

  const std::string b = repo.StartNew()["lineage"];
  RunResult discuss = repo.Review(Verdict(b, "NEEDS_DISCUSSION"));
  REQUIRE(discuss.exit_code == 0);
  CHECK(discuss.Json()["state"] == "escalated");
  ExpectFsckClean(repo);
}

TEST_CASE("lifecycle: verdict refusals change nothing") {
  LifecycleRepo repo;
  Json started = repo.StartNew();
  const std::string lineage = started["lineage"];
  for (const char* bad : {"approve", "APPROVE ", " APPROVE", "APPROVED", "Approve", "", "REJECT"}) {
    repo.ExpectRefused(Verdict(lineage, bad), "usage", 2);
  }
  repo.ExpectRefused(Verdict(lineage, "REQUEST_CHANGES", "docs-reviewer"), "forbidden", 6);
  repo.ExpectRefused(Verdict(lineage, "FIXED", "reviewer"), "forbidden", 6);
  repo.ExpectRefused(Verdict(lineage, "APPROVE", "general"), "forbidden", 6);
  repo.ExpectRefused(Verdict(lineage, "APPROVE", "Reviewer"), "forbidden", 6);
  repo.ExpectRefused(Verdict("review-0000000000000000", "APPROVE"), "not_found", 3);
  repo.ExpectRefused(Verdict("Bad_Id", "APPROVE"), "usage", 2);
  repo.ExpectRefused({"verdict", "--lineage", lineage, "--verdict", "APPROVE", "--actor", "ana",
                      "--role", "reviewer"},
                     "usage", 2);
  auto conflict = Verdict(lineage, "APPROVE");
  conflict.insert(conflict.end(), {"--expected-revision", kZeroRevision});
  repo.ExpectRefused(conflict, "conflict", 11);
  auto matching = Verdict(lineage, "REQUEST_CHANGES");
  matching.insert(matching.end(), {"--expected-revision", started["revision"]});
  REQUIRE(repo.Review(matching).exit_code == 0);
  // The revision moved on: the same compare-and-swap now loses.
  repo.ExpectRefused(matching, "conflict", 11);
  REQUIRE(repo.Review(Verdict(lineage, "NEEDS_DISCUSSION")).exit_code == 0);
  for (const char* verdict : {"APPROVE", "REQUEST_CHANGES", "NEEDS_DISCUSSION"}) {
    repo.ExpectRefused(Verdict(lineage, verdict), "wrong_state", 6);
  }
  auto approved = repo.StartApproved();
  repo.ExpectRefused(Verdict(approved.lineage, "REQUEST_CHANGES"), "wrong_state", 6);
  // The same actor approving the approved round again is a repeat (docs/format.md,
  // "Co-approvals"): it answers and writes nothing.
  const std::string before = ReadFile(repo.record_path(approved.lineage));
  RunResult again = repo.Review(Verdict(approved.lineage, "APPROVE"));
  REQUIRE(again.exit_code == 0);
  CHECK(again.Json()["approval"] == "repeat");
  CHECK(ReadFile(repo.record_path(approved.lineage)) == before);
}

TEST_CASE("lifecycle: a verdict keeps every state member it does not know - in order") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  auto record = store::ParseRecordFile(ReadFile(repo.record_path(lineage)), lineage);
  REQUIRE(record.ok());
  auto state = nlohmann::ordered_json::parse(record->compact_state);
  state["runtime_agent"] = "go-agent";
  state["future_field"] = {{"z", 1}, {"a", {true, nullptr, "x"}}};
  std::string revision;
  WriteFile(repo.record_path(lineage), store::EncodeRecordFile(state, &revision));
  RunResult run = repo.Review(Verdict(lineage, "REQUEST_CHANGES"));
  REQUIRE(run.exit_code == 0);
  auto after = store::ParseRecordFile(ReadFile(repo.record_path(lineage)), lineage);
  REQUIRE(after.ok());
  auto new_state = nlohmann::ordered_json::parse(after->compact_state);
  CHECK(new_state["runtime_agent"] == "go-agent");
  CHECK(new_state["future_field"].dump() == state["future_field"].dump());
  std::vector<std::string> keys;
  for (const auto& item : new_state.items()) keys.push_back(item.key());
  std::vector<std::string> old_keys;
  for (const auto& item : state.items()) old_keys.push_back(item.key());
  CHECK(std::vector<std::string>(keys.begin(), keys.begin() + old_keys.size()) == old_keys);
}

TEST_CASE(
    "lifecycle: a verdict_history of an earlier build is dropped by the next write - kept in the "
    "history") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  auto record = store::ParseRecordFile(ReadFile(repo.record_path(lineage)), lineage);
  REQUIRE(record.ok());
  auto state = nlohmann::ordered_json::parse(record->compact_state);
  state["verdict_history"] = {{"verdict", "APPROVE"}};
  std::string revision;
  const std::string bytes = store::EncodeRecordFile(state, &revision);
  WriteFile(repo.record_path(lineage), bytes);
  RunResult run = repo.Review(Verdict(lineage, "REQUEST_CHANGES"));
  CHECK(run.exit_code == 0);
  CHECK_FALSE(repo.RecordState(lineage).contains("verdict_history"));
  CHECK(repo.Git({"cat-file", "blob", "refs/gentle-ai/reviews/" + lineage + "~1:review-state.json"})
            .out == bytes);
}

TEST_CASE("lifecycle: an idempotent start still recovers an interrupted mutation") {
  LifecycleRepo repo;
  const std::string first = repo.StartNew()["lineage"];
  nlohmann::json second = repo.StartNew();
  RunResult crashed = repo.Review(Verdict(first, "REQUEST_CHANGES"),
                                  {{"GENTLE_FAULT_POINT", "verdict:index-prepared"}});
  REQUIRE(crashed.exit_code == 86);
  RunResult dirty = repo.Review({"fsck"});
  REQUIRE(dirty.exit_code != 0);
  REQUIRE(dirty.out.find("index_prepared") != std::string::npos);

  // The same candidate as `second`: nothing to create, but the writer's recovery still runs.
  RunResult again = repo.Review({"start", "--untracked", "change-2.txt"});
  REQUIRE(again.exit_code == 0);
  CHECK(again.Json()["created"] == false);
  CHECK(again.Json()["lineage"] == second["lineage"]);
  CHECK(again.Json()["revision"] == second["revision"]);
  ExpectFsckClean(repo);
}

TEST_CASE(
    "lifecycle: burn writes the exact tombstone - removes the lineage and keeps its history") {
  LifecycleRepo repo;
  auto approved = repo.StartApproved();
  const std::string target = repo.RecordState(approved.lineage)["current_snapshot"]["identity"];
  RunResult run = repo.Review({"burn", "--lineage", approved.lineage, "--token", approved.token,
                               "--expected-revision", approved.revision});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  Json burn = run.Json();
  const std::string repo_key = store::RepoKey(repo.root());
  const std::string key = store::TombstoneFileName(repo_key, target);
  const std::string file = repo.store_root() + "/terminal-consumption/v1/" + key;
  CHECK(burn["schema"] == "gentle-ai.review-burn/v1");
  CHECK(burn["tombstone"] == file);
  CHECK(burn["repository"] == repo_key);
  CHECK(burn["original_worktree"] == true);
  CHECK(ReadFile(file) ==
        "{\"schema\":\"gentle-ai.review-terminal-consumption/v1\",\"repository\":\"" + repo_key +
            "\",\"target\":\"" + target + "\",\"lineage\":\"" + approved.lineage + "\"}");
  CHECK_FALSE(Exists(repo.store_root() + "/v2/" + approved.lineage));
  // The history stays, ending in the terminal burn commit.
  CHECK(repo.Git({"log", "-1", "--format=%s", "refs/gentle-ai/reviews/" + approved.lineage}).out ==
        "burn " + approved.lineage + "\n");

  RunResult status = repo.Review({"status", "--lineage", approved.lineage});
  CHECK(status.exit_code == 4);
  CHECK(status.Json()["error"]["code"] == "consumed");
  CHECK(status.Json()["error"]["details"]["tombstone"] == file);
  Json list = repo.Review({"list"}).Json();
  REQUIRE(list["lineages"].size() == 1);
  CHECK(list["lineages"][0]["state"] == "consumed");
  ExpectFsckClean(repo);
  // The same candidate cannot start again, and the burn cannot be replayed.
  repo.ExpectRefused({"start", "--untracked", "change-1.txt"}, "consumed", 4);
  repo.ExpectRefused({"burn", "--lineage", approved.lineage, "--token", approved.token,
                      "--expected-revision", approved.revision},
                     "consumed", 4);
}

TEST_CASE("lifecycle: burn refusals change nothing") {
  LifecycleRepo repo;
  auto approved = repo.StartApproved();
  auto burn = [&](const std::string& token, const std::string& revision) {
    return std::vector<std::string>{"burn", "--lineage",           approved.lineage, "--token",
                                    token,  "--expected-revision", revision};
  };
  std::string wrong = approved.token;
  wrong[0] = wrong[0] == 'a' ? 'b' : 'a';
  repo.ExpectRefused(burn(wrong, approved.revision), "forbidden", 6);
  repo.ExpectRefused(burn(approved.token, kZeroRevision), "conflict", 11);
  repo.ExpectRefused(burn("nothex", approved.revision), "usage", 2);
  repo.ExpectRefused(burn(approved.token, "sha256:short"), "usage", 2);
  repo.ExpectRefused({"burn", "--lineage", approved.lineage, "--token", approved.token}, "usage",
                     2);
  Json reviewing = repo.StartNew();
  repo.ExpectRefused({"burn", "--lineage", reviewing["lineage"], "--token", approved.token,
                      "--expected-revision", reviewing["revision"]},
                     "wrong_state", 6);
  repo.ExpectRefused({"burn", "--lineage", "review-0000000000000000", "--token", approved.token,
                      "--expected-revision", approved.revision},
                     "not_found", 3);
}

TEST_CASE("lifecycle: abandon quarantines with a committed audit record - then retired") {
  LifecycleRepo repo;
  Json started = repo.StartNew();
  const std::string lineage = started["lineage"];
  RunResult run = repo.Review({"abandon", "--lineage", lineage, "--reason", "operator_disposition",
                               "--actor", " ops ", "--expected-revision", started["revision"]});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  Json out = run.Json();
  CHECK(out["schema"] == "gentle-ai.review-abandon/v1");
  CHECK(out["state"] == "retired");
  const std::string audit = out["audit_record"];
  const std::string qdir = out["quarantine_path"];
  CHECK(audit == qdir + "/reclaim-record.json");
  CHECK(fs::path(qdir).parent_path() == fs::path(repo.store_root() + "/quarantine"));
  CHECK(fs::path(qdir).filename().string().rfind(lineage + "-", 0) == 0);
  Json record = Json::parse(ReadFile(audit));
  CHECK(record["schema"] == "gentle-ai.review-reclaim-record/v1");
  CHECK(record["status"] == "committed");
  CHECK(record["lineage_id"] == lineage);
  CHECK(record["reason"] == "operator_disposition");
  CHECK(record["actor"] == "ops");
  CHECK(record["source_path"] == repo.store_root() + "/v2/" + lineage);
  CHECK(record["quarantine_path"] == qdir);
  CHECK(record["residue"] == Json::array({"review-state.json"}));
  CHECK(record["abandonment"]["revision"] == started["revision"]);
  CHECK(ReadFile(audit).back() == '\n');
  CHECK(Exists(qdir + "/residue/review-state.json"));
  CHECK_FALSE(Exists(repo.store_root() + "/v2/" + lineage));
  CHECK(repo.Git({"log", "-1", "--format=%s", "refs/gentle-ai/reviews/" + lineage}).out ==
        "abandon " + lineage + "\n");

  RunResult status = repo.Review({"status", "--lineage", lineage});
  CHECK(status.exit_code == 5);
  CHECK(status.Json()["error"]["code"] == "retired");
  CHECK(status.Json()["error"]["details"]["audit_record"] == audit);
  Json list = repo.Review({"list"}).Json();
  REQUIRE(list["lineages"].size() == 1);
  CHECK(list["lineages"][0]["state"] == "retired");
  CHECK(list["lineages"][0]["audit_record"] == audit);
  ExpectFsckClean(repo);
  repo.ExpectRefused(
      {"abandon", "--lineage", lineage, "--reason", "operator_disposition", "--actor", "ops"},
      "retired", 5);
}

TEST_CASE("lifecycle: abandon refusals change nothing") {
  LifecycleRepo repo;
  Json started = repo.StartNew();
  const std::string lineage = started["lineage"];
  auto abandon = [&](const std::string& l, const std::string& reason) {
    return std::vector<std::string>{"abandon", "--lineage", l,    "--reason",
                                    reason,    "--actor",   "ops"};
  };
  repo.ExpectRefused(abandon(lineage, "because"), "usage", 2);
  repo.ExpectRefused(abandon(lineage, "Operator_Disposition"), "usage", 2);
  auto conflict = abandon(lineage, "retired_schema");
  conflict.insert(conflict.end(), {"--expected-revision", kZeroRevision});
  repo.ExpectRefused(conflict, "conflict", 11);
  repo.ExpectRefused(abandon("review-0000000000000000", "retired_schema"), "not_found", 3);
  auto approved = repo.StartApproved();
  repo.ExpectRefused(abandon(approved.lineage, "operator_disposition"), "wrong_state", 6);
  const std::string escalated = repo.StartNew()["lineage"];
  REQUIRE(repo.Review(Verdict(escalated, "NEEDS_DISCUSSION")).exit_code == 0);
  repo.ExpectRefused(abandon(escalated, "operator_disposition"), "wrong_state", 6);
  // correction_required is not terminal: abandon is allowed.
  REQUIRE(repo.Review(Verdict(lineage, "REQUEST_CHANGES")).exit_code == 0);
  CHECK(repo.Review(abandon(lineage, "retired_schema")).exit_code == 0);
}

TEST_CASE("lifecycle: reclaim retires an incomplete entry and refuses a complete one") {
  LifecycleRepo repo;
  const std::string incomplete = "review-00000000deadbeef";
  fs::create_directories(repo.store_root() + "/v2/" + incomplete);
  WriteFile(repo.store_root() + "/v2/" + incomplete + "/.atomic-abc123", "partial");
  Json started = repo.StartNew();
  const std::string complete = started["lineage"];

  RunResult fsck = repo.Review({"fsck"});
  CHECK(fsck.exit_code == 7);
  CHECK(fsck.Json()["findings"][0]["code"] == "incomplete_entry");

  auto before = repo.StoreBytes();
  RunResult refused =
      repo.Review({"reclaim", "--lineage", complete, "--reason", "crash", "--actor", "x"});
  CHECK(refused.exit_code == 6);
  CHECK(refused.Json()["error"]["code"] == "wrong_state");
  CHECK(refused.Json()["error"]["details"]["operation"] == "abandon");
  CHECK(repo.StoreBytes() == before);
  repo.ExpectRefused(
      {"reclaim", "--lineage", "review-0000000000000001", "--reason", "r", "--actor", "x"},
      "not_found", 3);
  repo.ExpectRefused({"reclaim", "--lineage", incomplete, "--reason", " ", "--actor", "x"}, "usage",
                     2);

  RunResult run = repo.Review(
      {"reclaim", "--lineage", incomplete, "--reason", "crash residue", "--actor", "ops"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  Json out = run.Json();
  CHECK(out["schema"] == "gentle-ai.review-reclaim/v1");
  CHECK(out["operation"] == "review/reclaim");
  Json record = Json::parse(ReadFile(out["audit_record"]));
  CHECK(record["status"] == "committed");
  CHECK(record["residue"] == Json::array({".atomic-abc123"}));
  CHECK_FALSE(record.contains("abandonment"));
  RunResult status = repo.Review({"status", "--lineage", incomplete});
  CHECK(status.exit_code == 5);
  CHECK(status.Json()["error"]["code"] == "retired");
  ExpectFsckClean(repo);
}

TEST_CASE("lifecycle: invalidate only from a pristine reviewing record - the record stays") {
  LifecycleRepo repo;
  Json started = repo.StartNew();
  const std::string lineage = started["lineage"];
  auto invalidate = [](const std::string& l) {
    return std::vector<std::string>{"invalidate",    "--lineage", l,    "--reason",
                                    "scope changed", "--actor",   "ops"};
  };
  auto conflict = invalidate(lineage);
  conflict.insert(conflict.end(), {"--expected-revision", kZeroRevision});
  repo.ExpectRefused(conflict, "conflict", 11);
  RunResult run = repo.Review(invalidate(lineage));
  REQUIRE(run.exit_code == 0);
  CHECK(run.Json()["schema"] == "gentle-ai.review-invalidate/v1");
  CHECK(run.Json()["state"] == "invalidated");
  Json state = repo.RecordState(lineage);
  CHECK(state["state"] == "invalidated");
  CHECK(state["invalidation_reason"] == "scope changed");
  CHECK_FALSE(state.contains("invalidated_by"));  // the actor is the history commit's
  CHECK(repo.Git({"log", "-1", "--format=%(trailers:key=Actor,valueonly)",
                  "refs/gentle-ai/reviews/" + lineage})
            .out.rfind("ops\n", 0) == 0);
  RunResult status = repo.Review({"status", "--lineage", lineage});
  CHECK(status.exit_code == 0);
  CHECK(status.Json()["lineages"][0]["state"] == "invalidated");
  repo.ExpectRefused(invalidate(lineage), "wrong_state", 6);
  repo.ExpectRefused(Verdict(lineage, "APPROVE"), "wrong_state", 6);
  repo.ExpectRefused(
      {"abandon", "--lineage", lineage, "--reason", "operator_disposition", "--actor", "ops"},
      "wrong_state", 6);

  // Not pristine: a verdict was given, even if the state went back to reviewing-like flow.
  const std::string judged = repo.StartNew()["lineage"];
  REQUIRE(repo.Review(Verdict(judged, "REQUEST_CHANGES")).exit_code == 0);
  repo.ExpectRefused(invalidate(judged), "wrong_state", 6);
  ExpectFsckClean(repo);
}

TEST_CASE("lifecycle: a historical-compat record is read_only for every mutation") {
  LifecycleRepo repo;
  auto approved = repo.StartApproved();
  const std::string lineage = approved.lineage;
  auto record = store::ParseRecordFile(ReadFile(repo.record_path(lineage)), lineage);
  REQUIRE(record.ok());
  auto state = nlohmann::ordered_json::parse(record->compact_state);
  state["state"] = "reviewing";
  state["zero_edit_escalation"] = true;
  std::string revision;
  WriteFile(repo.record_path(lineage), store::EncodeRecordFile(state, &revision));
  repo.ExpectRefused(Verdict(lineage, "APPROVE"), "read_only", 6);
  repo.ExpectRefused(
      {"burn", "--lineage", lineage, "--token", approved.token, "--expected-revision", revision},
      "read_only", 6);
  repo.ExpectRefused(
      {"abandon", "--lineage", lineage, "--reason", "retired_schema", "--actor", "x"}, "read_only",
      6);
  repo.ExpectRefused({"invalidate", "--lineage", lineage, "--reason", "r", "--actor", "x"},
                     "read_only", 6);
  repo.ExpectRefused({"revise", "--lineage", lineage}, "read_only", 6);
  RunResult status = repo.Review({"status", "--lineage", lineage});
  CHECK(status.exit_code == 0);
}

TEST_CASE("lifecycle: a batch-reconciliation marker refuses every verb") {
  LifecycleRepo repo;
  auto approved = repo.StartApproved();
  WriteFile(repo.store_root() + "/batch-reconcile-journal.json", "{}");
  const std::string l = approved.lineage;
  for (const auto& args : std::vector<std::vector<std::string>>{
           Verdict(l, "APPROVE"),
           {"burn", "--lineage", l, "--token", approved.token, "--expected-revision",
            approved.revision},
           {"abandon", "--lineage", l, "--reason", "retired_schema", "--actor", "x"},
           {"reclaim", "--lineage", l, "--reason", "r", "--actor", "x"},
           {"invalidate", "--lineage", l, "--reason", "r", "--actor", "x"},
           {"revise", "--lineage", l},
           {"store", "reset", "--yes"},
           {"index", "rebuild"},
           {"fsck"}}) {
    repo.ExpectRefused(args, "reconciliation_prepared", 6);
  }
}

TEST_CASE("lifecycle: store reset prints its plan without --yes - removes everything with it") {
  LifecycleRepo repo;
  auto approved = repo.StartApproved();
  REQUIRE(repo.Review({"burn", "--lineage", approved.lineage, "--token", approved.token,
                       "--expected-revision", approved.revision})
              .exit_code == 0);
  const std::string live = repo.StartNew()["lineage"];
  auto before = repo.StoreBytes();
  RunResult plan = repo.Review({"store", "reset"});
  REQUIRE(plan.exit_code == 0);
  CHECK(plan.Json()["schema"] == "gentle-ai.review-store-reset/v1");
  CHECK(plan.Json()["performed"] == false);
  // Every history goes with the store, the burned lineage's too.
  CHECK(plan.Json()["pin_refs"] ==
        (approved.lineage < live ? Json::array({"refs/gentle-ai/reviews/" + approved.lineage,
                                                "refs/gentle-ai/reviews/" + live})
                                 : Json::array({"refs/gentle-ai/reviews/" + live,
                                                "refs/gentle-ai/reviews/" + approved.lineage})));
  CHECK(repo.StoreBytes() == before);
  RunResult human = repo.Review({"store", "reset"}, {}, false);
  CHECK(human.out.find("would remove") != std::string::npos);
  CHECK(repo.StoreBytes() == before);

  RunResult reset = repo.Review({"store", "reset", "--yes"});
  REQUIRE(reset.exit_code == 0);
  CHECK(reset.Json()["performed"] == true);
  CHECK_FALSE(Exists(repo.store_root()));
  CHECK(repo.Git({"for-each-ref", "refs/gentle-ai"}).out.empty());
  CHECK(repo.Review({"list"}).Json()["lineages"].empty());
  ExpectFsckClean(repo);
  CHECK(repo.Review({"status", "--lineage", approved.lineage}).exit_code == 3);
}

// Every file under `dir` (path -> bytes).
std::map<std::string, std::string> TreeBytes(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    out[entry.path().string()] = entry.is_regular_file() ? ReadFile(entry.path().string()) : "";
  }
  return out;
}

TEST_CASE("lifecycle: read paths write nothing - with no index they create none") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  auto whole = TreeBytes(repo.common_dir());
  auto before = repo.StoreBytes();
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"status"},
                                             {"status", "--lineage", lineage},
                                             {"list"},
                                             {"fsck"},
                                             {"store", "reset"},
                                             {"status", "--lineage", "review-0000000000000000"}}) {
    repo.Review(args);
    CHECK(repo.StoreBytes() == before);
  }
  // The whole common dir, index.sqlite-wal and -shm included, is byte-identical.
  CHECK(TreeBytes(repo.common_dir()) == whole);
  // Side files gone (an index from an older release): readers use the files, create nothing.
  for (const char* suffix : {"-wal", "-shm"})
    fs::remove(repo.store_root() + "/index.sqlite" + suffix);
  before = repo.StoreBytes();
  CHECK(repo.Review({"list"}).exit_code == 0);
  CHECK(repo.Review({"status", "--lineage", "review-0000000000000000"}).exit_code == 3);
  // fsck checks such an index from a copy in memory (docs/index.md): clean, nothing created.
  CHECK(repo.Review({"fsck"}).exit_code == 0);
  CHECK(repo.StoreBytes() == before);
  fs::remove(repo.store_root() + "/index.sqlite");
  before = repo.StoreBytes();
  RunResult list = repo.Review({"list"});
  CHECK(list.exit_code == 0);
  CHECK(list.err.empty());
  CHECK(list.Json()["lineages"][0]["lineage"] == lineage);
  repo.Review({"status", "--lineage", "review-0000000000000000"});
  CHECK(repo.StoreBytes() == before);
  CHECK_FALSE(Exists(repo.store_root() + "/index.sqlite"));
  // fsck says the index is missing; the next mutation rebuilds it with a notice.
  RunResult fsck = repo.Review({"fsck"});
  CHECK(fsck.exit_code == 7);
  CHECK(fsck.Json()["findings"][0]["code"] == "index_missing");
  RunResult verdict = repo.Review(Verdict(lineage, "REQUEST_CHANGES"));
  CHECK(verdict.exit_code == 0);
  CHECK(verdict.err ==
        "gentle-ai: notice: index.sqlite was missing; rebuilding it from the files\n");
  ExpectFsckClean(repo);
}

TEST_CASE("lifecycle: a corrupt index is read around by readers and rebuilt by writers") {
  LifecycleRepo repo;
  auto approved = repo.StartApproved();
  REQUIRE(repo.Review({"burn", "--lineage", approved.lineage, "--token", approved.token,
                       "--expected-revision", approved.revision})
              .exit_code == 0);
  for (const char* suffix : {"", "-wal", "-shm"}) {
    fs::remove(repo.store_root() + "/index.sqlite" + suffix);
  }
  WriteFile(repo.store_root() + "/index.sqlite", std::string(8192, 'x'));
  RunResult status = repo.Review({"status", "--lineage", approved.lineage});
  CHECK(status.exit_code == 4);
  CHECK(status.err.rfind("gentle-ai: notice: index.sqlite is unusable", 0) == 0);
  CHECK(std::count(status.err.begin(), status.err.end(), '\n') == 1);
  RunResult fsck = repo.Review({"fsck"});
  CHECK(fsck.exit_code == 7);
  CHECK(fsck.Json()["findings"][0]["code"] == "index_corrupted");
  const std::string live = repo.StartNew()["lineage"];
  ExpectFsckClean(repo);
  RunResult list = repo.Review({"list"});
  CHECK(list.Json()["lineages"].size() == 2);
  (void)live;
}

TEST_CASE("lifecycle: fsck names each disagreement and index rebuild repairs it") {
  LifecycleRepo repo;
  const std::string a = repo.StartNew()["lineage"];
  const std::string b = repo.StartNew()["lineage"];
  {
    auto db = store::index::IndexDb::OpenReadWrite(repo.store_root() + "/index.sqlite");
    REQUIRE(db.ok());
    REQUIRE((*db)->DeleteLineage(a).ok());
    REQUIRE(
        (*db)
            ->UpsertTombstone({std::string(64, 'f'), "review-0000000000000009",
                               "sha256:" + std::string(64, '1'), "sha256:" + std::string(64, '2'),
                               store::index::RowStatus::kCommitted})
            .ok());
  }
  repo.Git({"update-ref", "-d", "refs/gentle-ai/reviews/" + b});
  repo.Git({"update-ref", "refs/gentle-ai/reviews/review-00000000000000aa", "HEAD"});
  RunResult fsck = repo.Review({"fsck"});
  CHECK(fsck.exit_code == 7);
  std::set<std::string> codes;
  const Json report = fsck.Json();
  for (const auto& f : report["findings"]) codes.insert(f["code"]);
  // b's creation time lived in its history (records hold no time member), so its row is stale too.
  CHECK(codes == std::set<std::string>{"index_missing_lineage", "index_extra_tombstone",
                                       "index_stale_lineage", "pin_missing", "pin_orphan"});
  RunResult human = repo.Review({"fsck"}, {}, false);
  CHECK(human.exit_code == 7);
  CHECK(human.out.find("NOT clean") != std::string::npos);

  RunResult rebuild = repo.Review({"index", "rebuild"});
  INFO(rebuild.out << rebuild.err);
  REQUIRE(rebuild.exit_code == 0);
  CHECK(rebuild.Json()["schema"] == "gentle-ai.review-index-rebuild/v1");
  CHECK(rebuild.Json()["lineages"] == 2);
  CHECK(rebuild.Json()["repinned"] == 1);
  fsck = repo.Review({"fsck"});
  // The orphan pin (a ref the store never wrote a record for) is reported, not deleted.
  REQUIRE(fsck.Json()["findings"].size() == 1);
  CHECK(fsck.Json()["findings"][0]["code"] == "pin_orphan");
  repo.Git({"update-ref", "-d", "refs/gentle-ai/reviews/review-00000000000000aa"});
  ExpectFsckClean(repo);
}

}  // namespace
}  // namespace gentle::testing
