// Records gentle-ai can read back (docs/format.md, decided): every record any verb writes
// holds only the members of gentle-ai's newest CompactState, in its order
// (gentle-ai's CompactState), keeps the plain approved_ack_token, and the
// store's files take gentle-ai's modes (docs/format.md). Records of earlier builds (with
// created_at, verdict_history, approved_ack_token_sha256) are read and migrated on their next
// write.
#include <sys/stat.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "store/record.h"
#include "store/secret.h"
#include "tests/support/files.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::ordered_json;

// gentle-ai's newest CompactState, in declaration order: store/compact_state.cc's list, restated
// here on purpose so that a change to it fails this test.
const std::vector<std::string> kCompactState = {
    "schema",
    "lineage_id",
    "generation",
    "state",
    "initial_snapshot",
    "current_snapshot",
    "genesis_paths",
    "correction_added_paths",
    "policy_hash",
    "frozen_policy_content",
    "risk_level",
    "selected_lenses",
    "original_changed_lines",
    "correction_budget",
    "correction_budget_policy",
    "lens_results",
    "findings",
    "classifications",
    "outcomes",
    "fix_finding_ids",
    "follow_ups",
    "proposed_correction_lines",
    "actual_correction_lines",
    "fix_delta_hash",
    "original_criteria",
    "correction_regression",
    "evidence_hash",
    "invalidation_reason",
    "invalidation_evidence",
    "recovery",
    "correction_attempts",
    "cumulative_correction_lines",
    "result_reopens",
    "reviewer_context_level",
    "capture_phase_revision",
    "capture_phase_epoch",
    "admitted_role_results",
    "targeted_validator_attempts",
    "approved_ack_token",
    "initial_atomic_start",
    "runtime_agent",
};

const std::vector<std::string> kStart = {"schema",        "lineage_id",          "generation",
                                         "state",         "initial_snapshot",    "current_snapshot",
                                         "genesis_paths", "initial_atomic_start"};

std::vector<std::string> With(const std::string& member) {
  std::vector<std::string> out = kStart;
  out.insert(out.end() - 1, member);
  return out;
}

Json StateOf(const std::string& bytes) { return Json::parse(bytes)["state"]; }

std::vector<std::string> Members(const std::string& bytes) {
  std::vector<std::string> out;
  const Json state = StateOf(bytes);
  for (auto it = state.begin(); it != state.end(); ++it) out.push_back(it.key());
  return out;
}

// The record of `lineage` holds exactly `expected`, which is in CompactState order.
void ExpectMembers(const std::string& bytes, const std::vector<std::string>& expected) {
  INFO(bytes);
  CHECK(Members(bytes) == expected);
  size_t at = 0;
  for (const std::string& member : expected) {
    auto found = std::find(kCompactState.begin() + at, kCompactState.end(), member);
    CHECK(found != kCompactState.end());
    at = found == kCompactState.end() ? at : static_cast<size_t>(found - kCompactState.begin());
  }
}

unsigned ModeOf(const std::string& path) {
  struct stat st;
  REQUIRE(lstat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

std::vector<std::string> Verdict(const std::string& lineage, const std::string& verdict) {
  return {"verdict", "--lineage", lineage,    "--verdict", verdict, "--actor",
          "ana",     "--role",    "reviewer", "--body",    "b"};
}

TEST_CASE("records: every verb writes exactly gentle-ai CompactState members in its order") {
  LifecycleRepo repo;
  const std::string a = repo.StartNew()["lineage"];
  ExpectMembers(ReadFile(repo.record_path(a)), kStart);
  REQUIRE(repo.Review(Verdict(a, "REQUEST_CHANGES")).exit_code == 0);
  ExpectMembers(ReadFile(repo.record_path(a)), kStart);
  REQUIRE(repo.Review(Verdict(a, "REQUEST_CHANGES")).exit_code == 0);
  ExpectMembers(ReadFile(repo.record_path(a)), kStart);
  RunResult approve = repo.Review(Verdict(a, "APPROVE"));
  REQUIRE(approve.exit_code == 0);
  const std::string approved = ReadFile(repo.record_path(a));
  ExpectMembers(approved, With("approved_ack_token"));
  // The token is kept as gentle-ai keeps it: plain, 64 hex.
  CHECK(StateOf(approved)["approved_ack_token"] == approve.Json()["token"]);

  const std::string b = repo.StartNew()["lineage"];
  REQUIRE(repo.Review(Verdict(b, "NEEDS_DISCUSSION")).exit_code == 0);
  ExpectMembers(ReadFile(repo.record_path(b)), kStart);
  CHECK(StateOf(ReadFile(repo.record_path(b)))["state"] == "escalated");

  const std::string c = repo.StartNew()["lineage"];
  REQUIRE(repo.Review({"invalidate", "--lineage", c, "--reason", "r", "--actor", "x"}).exit_code ==
          0);
  ExpectMembers(ReadFile(repo.record_path(c)), With("invalidation_reason"));

  // Burn and abandon write no record; the records their terminal commits hold are the last ones.
  RunResult burn = repo.Review({"burn", "--lineage", a, "--token", approve.Json()["token"],
                                "--expected-revision", approve.Json()["revision"]});
  REQUIRE(burn.exit_code == 0);
  CHECK(repo.Git({"cat-file", "blob", "refs/gentle-ai/reviews/" + a + ":review-state.json"}).out ==
        approved);
  const std::string d = repo.StartNew()["lineage"];
  RunResult abandon = repo.Review(
      {"abandon", "--lineage", d, "--reason", "operator_disposition", "--actor", "ops"});
  REQUIRE(abandon.exit_code == 0);
  const std::string quarantine = abandon.Json()["quarantine_path"];
  ExpectMembers(ReadFile(quarantine + "/residue/review-state.json"), kStart);

  // gentle-ai's modes: records, tombstones and audit records 0644, directories 0755, the
  // quarantine 0700; the index (this project's own file) 0600.
  CHECK(ModeOf(repo.record_path(b)) == 0644);
  CHECK(ModeOf(repo.store_root() + "/v2") == 0755);
  CHECK(ModeOf(repo.store_root() + "/v2/" + b) == 0755);
  CHECK(ModeOf(burn.Json()["tombstone"].get<std::string>()) == 0644);
  CHECK(ModeOf(repo.store_root() + "/terminal-consumption/v1") == 0755);
  CHECK(ModeOf(repo.store_root() + "/quarantine") == 0700);
  CHECK(ModeOf(quarantine) == 0700);
  CHECK(ModeOf(abandon.Json()["audit_record"].get<std::string>()) == 0644);
  CHECK(ModeOf(repo.store_root() + "/index.sqlite") == 0600);
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

TEST_CASE("records: a record of an earlier build is read and migrated on its next write") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  const std::string created = "2026-11-29T08:00:00.25Z";
  // The record as earlier builds wrote it: created_at after genesis_paths, verdict_history last.
  Json state = StateOf(ReadFile(repo.record_path(lineage)));
  Json old;
  for (auto it = state.begin(); it != state.end(); ++it) {
    old[it.key()] = it.value();
    if (it.key() == "genesis_paths") old["created_at"] = created;
  }
  old["verdict_history"] = Json::array();
  std::string revision;
  const std::string old_file = store::EncodeRecordFile(old, &revision);
  WriteFile(repo.record_path(lineage), old_file);
  REQUIRE(repo.Review({"index", "rebuild"}).exit_code == 0);
  RunResult status = repo.Review({"status", "--lineage", lineage});
  REQUIRE(status.exit_code == 0);
  CHECK(status.Json()["lineages"][0]["revision"] == revision);
  // index rebuild recorded the old record in the history (a sync commit), untouched.
  CHECK(repo.Git({"log", "-1", "--format=%s", "refs/gentle-ai/reviews/" + lineage}).out ==
        "sync " + lineage + "\n");
  CHECK(ReadFile(repo.record_path(lineage)) == old_file);

  RunResult verdict = repo.Review(Verdict(lineage, "REQUEST_CHANGES"));
  REQUIRE(verdict.exit_code == 0);
  ExpectMembers(ReadFile(repo.record_path(lineage)), kStart);
  CHECK(repo.Git({"cat-file", "blob", "refs/gentle-ai/reviews/" + lineage + "~1:review-state.json"})
            .out == old_file);
  RunResult list = repo.Review({"list"});
  CHECK(list.Json()["lineages"][0]["created_at"] == created);
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

TEST_CASE("records: an approval of an earlier build (token digest only) still burns") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  auto token = store::RandomHex(32);
  REQUIRE(token.ok());
  Json state = StateOf(ReadFile(repo.record_path(lineage)));
  state["state"] = "approved";
  state["approved_ack_token_sha256"] = store::TokenDigest(*token);
  state["verdict_history"] = Json::array();
  std::string revision;
  WriteFile(repo.record_path(lineage), store::EncodeRecordFile(state, &revision));
  REQUIRE(repo.Review({"index", "rebuild"}).exit_code == 0);
  RunResult wrong = repo.Review({"burn", "--lineage", lineage, "--token", std::string(64, 'a'),
                                 "--expected-revision", revision});
  CHECK(wrong.exit_code == 6);
  RunResult burn = repo.Review(
      {"burn", "--lineage", lineage, "--token", *token, "--expected-revision", revision});
  INFO(burn.out << burn.err);
  CHECK(burn.exit_code == 0);
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

TEST_CASE("records: thousands of unknown state members are kept exactly - in place - by rewrites") {
  LifecycleRepo repo;
  constexpr int kMembers = 5000;
  // A record as another writer may leave it: unknown members after genesis_paths and after the
  // last member, each kept where it is by every rewrite (docs/format.md).
  auto with_unknown = [&](const std::string& lineage) {
    Json state = StateOf(ReadFile(repo.record_path(lineage)));
    Json out;
    for (auto it = state.begin(); it != state.end(); ++it) {
      out[it.key()] = it.value();
      if (it.key() == "genesis_paths") {
        for (int i = 0; i < kMembers; ++i) out["x_" + std::to_string(i)] = i;
      }
    }
    out["zz_last"] = Json::array({"kept"});
    std::string revision;
    const std::string file = store::EncodeRecordFile(out, &revision);
    WriteFile(repo.record_path(lineage), file);
    return file;
  };
  const std::string a = repo.StartNew()["lineage"];
  const std::string b = repo.StartNew()["lineage"];
  const std::string file_a = with_unknown(a);
  const std::string file_b = with_unknown(b);
  REQUIRE(repo.Review({"index", "rebuild"}).exit_code == 0);
  // The expected bytes are the file's own, edited as text: the state's value, the revision line.
  auto revised_text = [](std::string text, const std::string& revision) {
    const size_t line = text.find("  \"revision\": \"");
    const size_t end = text.find('\n', line);
    text.replace(line, end - line, "  \"revision\": \"" + revision + "\",");
    return text;
  };
  auto replace_once = [](std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    REQUIRE(text.find(from, at + 1) == std::string::npos);
    return text.replace(at, from.size(), to);
  };

  RunResult verdict = repo.Review(Verdict(a, "REQUEST_CHANGES"));
  REQUIRE(verdict.exit_code == 0);
  CHECK(ReadFile(repo.record_path(a)) ==
        revised_text(replace_once(file_a, "\n    \"state\": \"reviewing\",\n",
                                  "\n    \"state\": \"correction_required\",\n"),
                     verdict.Json()["revision"]));

  // invalidate adds its member at its CompactState place: after the unknown members that follow
  // genesis_paths, before initial_atomic_start.
  RunResult invalidate =
      repo.Review({"invalidate", "--lineage", b, "--reason", "r", "--actor", "x"});
  REQUIRE(invalidate.exit_code == 0);
  std::string expected = replace_once(file_b, "\n    \"state\": \"reviewing\",\n",
                                      "\n    \"state\": \"invalidated\",\n");
  expected = replace_once(expected, "\n    \"initial_atomic_start\": ",
                          "\n    \"invalidation_reason\": \"r\",\n    \"initial_atomic_start\": ");
  CHECK(ReadFile(repo.record_path(b)) == revised_text(expected, invalidate.Json()["revision"]));

  // revise moves the generation and the current snapshot and keeps every unknown member in place.
  repo.Write("change-1.txt", "revised\n");
  RunResult revise = repo.Review({"revise", "--lineage", a});
  INFO(revise.out << revise.err);
  REQUIRE(revise.exit_code == 0);
  const Json before = StateOf(file_a);
  Json after = StateOf(ReadFile(repo.record_path(a)));
  CHECK(Members(ReadFile(repo.record_path(a))) == Members(file_a));
  CHECK(after["generation"] == 2);
  Json unchanged = before;
  for (const char* moved : {"generation", "state", "current_snapshot"}) {
    unchanged.erase(moved);
    after.erase(moved);
  }
  CHECK(after == unchanged);
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

}  // namespace
}  // namespace gentle::testing
