// Record codec: round trip, revision verification from raw bytes, tolerance of unknown fields and
// refusal of tampered or malformed records.
#include "store/record.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "store/digests.h"
#include "store/sha256.h"

namespace gentle::store {
namespace {

Snapshot SampleSnapshot() {
  Snapshot s;
  s.kind = "current-changes";
  s.base_tree = std::string(kEmptyTreeSha1);
  s.candidate_tree = "8f7a6b1c2d3e4f5061728394a5b6c7d8e9f00112";
  s.paths = {"a.txt"};
  s.paths_digest = PathsDigest(s.paths);
  s.intended_untracked_proof = IntendedUntrackedProof({});
  s.identity = ComputeSnapshotIdentity(s);
  return s;
}

nlohmann::ordered_json SampleState(const std::string& lineage) {
  nlohmann::ordered_json state;
  state["schema"] = kStateSchema;
  state["lineage_id"] = lineage;
  state["generation"] = 1;
  state["state"] = "reviewing";
  SnapshotToJson(SampleSnapshot(), &state["initial_snapshot"]);
  SnapshotToJson(SampleSnapshot(), &state["current_snapshot"]);
  return state;
}

}  // namespace

TEST_CASE("a record round-trips and its revision is the hash of the compact state") {
  std::string revision;
  std::string file = EncodeRecordFile(SampleState("review-abc"), &revision);
  REQUIRE(file.back() == '\n');
  CHECK(file.rfind("{\n  \"schema\": \"gentle-ai.review-state-record/v2\",\n  \"revision\": ", 0) ==
        0);
  auto view = ParseRecordFile(file, "review-abc");
  REQUIRE(view.ok());
  CHECK(view->revision == revision);
  CHECK(view->lineage_id == "review-abc");
  CHECK(view->round == 1);
  CHECK(view->state.name() == "reviewing");
  CHECK(view->initial_snapshot == SampleSnapshot());
  CHECK_FALSE(view->historical_compat);
  // The revision preimage, spelled out independently: domain, NUL, the compact state text.
  std::string compact = SampleState("review-abc").dump();
  CHECK(revision ==
        "sha256:" + Sha256Hex(std::string("gentle-ai.review-state/v2\0", 26) + compact));
}

TEST_CASE("a record with fields this code does not know still verifies and reads") {
  auto state = SampleState("review-abc");
  state["policy_hash"] = "sha256:" + std::string(64, '0');
  state["admitted_role_results"] = nlohmann::ordered_json::array({{{"role", "lens"}, {"x", 1}}});
  state["initial_snapshot"]["generated_path_interpretation"] = "generated-summary/v1";
  std::string revision;
  std::string file = EncodeRecordFile(state, &revision);
  auto view = ParseRecordFile(file, "review-abc");
  REQUIRE(view.ok());
  CHECK(view->revision == revision);
}

TEST_CASE("a record indented differently still verifies from its raw bytes") {
  auto state = SampleState("review-abc");
  std::string compact = state.dump();
  std::string revision = StateRevision(compact);
  std::string file = "{\"schema\":\"gentle-ai.review-state-record/v2\",\"revision\":\"" + revision +
                     "\",\"state\":" + state.dump(7) + "}";
  CHECK(ParseRecordFile(file, "review-abc").ok());
}

TEST_CASE("tampered and malformed records are refused as corrupted") {
  std::string revision;
  std::string file = EncodeRecordFile(SampleState("review-abc"), &revision);
  SECTION("one byte changed in state") {
    std::string tampered = file;
    size_t at = tampered.find("\"reviewing\"");
    tampered[at + 1] = 'R';
    CHECK(ParseRecordFile(tampered, "review-abc").status().code() == Code::kCorrupted);
  }
  SECTION("lineage differs from its directory") {
    CHECK(ParseRecordFile(file, "review-other").status().code() == Code::kCorrupted);
  }
  SECTION("truncated") {
    CHECK(ParseRecordFile(file.substr(0, file.size() / 2), "review-abc").status().code() ==
          Code::kCorrupted);
  }
  SECTION("duplicate keys") {
    std::string dup = file;
    dup.insert(dup.find("\"generation\""), "\"generation\": 1,\n    ");
    CHECK(ParseRecordFile(dup, "review-abc").status().code() == Code::kCorrupted);
  }
  SECTION("not UTF-8") {
    std::string bad = file;
    bad.insert(bad.find("reviewing"), "\xff");
    CHECK(ParseRecordFile(bad, "review-abc").status().code() == Code::kCorrupted);
  }
  SECTION("deeply nested") {
    std::string deep = std::string(10000, '[') + std::string(10000, ']');
    std::string bad = file;
    bad.insert(bad.find("\"generation\""), "\"deep\": " + deep + ",\n    ");
    CHECK(ParseRecordFile(bad, "review-abc").status().code() == Code::kCorrupted);
  }
  SECTION("not an object") {
    CHECK(ParseRecordFile("[]", "review-abc").status().code() == Code::kCorrupted);
    CHECK(ParseRecordFile("", "review-abc").status().code() == Code::kCorrupted);
  }
  SECTION("huge") {
    std::string huge(kMaxRecordBytes + 1, ' ');
    CHECK(ParseRecordFile(huge, "review-abc").status().code() == Code::kCorrupted);
  }
}

TEST_CASE("a record carrying retired fields is read as historical-compat") {
  auto state = SampleState("review-abc");
  state["lens_results"] = nlohmann::ordered_json::array({{{"lens", "review-risk"}}});
  std::string revision;
  auto view = ParseRecordFile(EncodeRecordFile(state, &revision), "review-abc");
  REQUIRE(view.ok());
  CHECK(view->historical_compat);
}

}  // namespace gentle::store
