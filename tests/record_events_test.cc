// The record read without a JSON document (store/record_events.h) against the same parse through
// the DOM: every record below, whether the event reader takes it or leaves it to the DOM, must
// give the same view or the same refusal, byte for byte.
#include "store/record_events.h"

#include <catch2/catch.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "store/digests.h"
#include "store/record.h"

namespace gentle::store {
namespace {

using OJ = nlohmann::ordered_json;

Snapshot SampleSnapshot(const std::vector<std::string>& paths) {
  Snapshot s;
  s.kind = "commit-range";
  s.base_tree = std::string(kEmptyTreeSha1);
  s.candidate_tree = "8f7a6b1c2d3e4f5061728394a5b6c7d8e9f00112";
  s.paths = paths;
  s.paths_digest = PathsDigest(s.paths);
  s.intended_untracked_proof = IntendedUntrackedProof({});
  s.identity = ComputeSnapshotIdentity(s);
  return s;
}

OJ SampleState() {
  OJ state;
  state["schema"] = kStateSchema;
  state["lineage_id"] = "review-abc";
  state["generation"] = 1;
  state["state"] = "approved";
  SnapshotToJson(SampleSnapshot({"a.txt", "b/c.txt"}), &state["initial_snapshot"]);
  SnapshotToJson(SampleSnapshot({"a.txt", "b/c.txt"}), &state["current_snapshot"]);
  state["created_at"] = "2026-12-06T10:00:00Z";
  state["initial_atomic_start"] = {{"lineage_id", "review-abc"},
                                   {"worktree_identity", "sha256:" + std::string(64, '1')}};
  return state;
}

// A record file whose revision binds `state`, as the writer makes it.
std::string Encode(const OJ& state) {
  std::string revision;
  return EncodeRecordFile(state, &revision);
}

// Both parses of `text` answer alike: the same refusal (code and message) or the same view.
void RequireSameAnswer(const std::string& text) {
  INFO(text);
  auto fast = ParseRecordFile(text, "review-abc");
  auto dom = ParseRecordFileThroughDom(text, "review-abc");
  REQUIRE(fast.ok() == dom.ok());
  if (!dom.ok()) {
    CHECK(fast.status().code() == dom.status().code());
    CHECK(fast.status().message() == dom.status().message());
    return;
  }
  CHECK(fast->revision == dom->revision);
  CHECK(fast->lineage_id == dom->lineage_id);
  CHECK(fast->round == dom->round);
  CHECK(fast->state == dom->state);
  CHECK(fast->initial_snapshot == dom->initial_snapshot);
  CHECK(fast->current_snapshot == dom->current_snapshot);
  CHECK(fast->created_at == dom->created_at);
  CHECK(fast->worktree_identity == dom->worktree_identity);
  CHECK(fast->historical_compat == dom->historical_compat);
  CHECK(fast->compact_state == dom->compact_state);
}

// One change to the sample state.
using Edit = std::function<void(OJ&)>;

std::vector<Edit> Edits() {
  const OJ retired_values[] = {nullptr,      "",          "x",   0,           7,
                               -1,           true,        false, OJ::array(), OJ::array({1}),
                               OJ::object(), OJ{{"k", 1}}};
  std::vector<Edit> edits = {
      [](OJ&) {},
      [](OJ& s) { s["policy_hash"] = "sha256:" + std::string(64, '0'); },
      [](OJ& s) {
        s["nested"] = {{"a", {{"b", OJ::array({1, -2, "x", nullptr})}}}};
      },
      [](OJ& s) { s["float"] = 0.5; },
      [](OJ& s) { s["generation"] = 2; },
      [](OJ& s) { s["generation"] = 0; },
      [](OJ& s) { s["generation"] = -1; },
      [](OJ& s) { s["generation"] = 1.0; },
      [](OJ& s) { s["generation"] = "1"; },
      [](OJ& s) { s["generation"] = uint64_t{1} << 63; },
      [](OJ& s) { s.erase("generation"); },
      [](OJ& s) { s["state"] = 3; },
      [](OJ& s) { s.erase("state"); },
      [](OJ& s) { s["schema"] = "other/v1"; },
      [](OJ& s) { s["lineage_id"] = "review-other"; },
      [](OJ& s) { s["created_at"] = 5; },
      [](OJ& s) { s["created_at"] = OJ::object(); },
      [](OJ& s) { s.erase("created_at"); },
      [](OJ& s) { s["initial_atomic_start"] = OJ::array({"worktree_identity"}); },
      [](OJ& s) { s["initial_atomic_start"]["worktree_identity"] = 9; },
      [](OJ& s) {
        s["initial_atomic_start"]["worktree_identity"] = {{"x", "y"}};
      },
      [](OJ& s) { s["initial_atomic_start"].erase("worktree_identity"); },
      [](OJ& s) {
        s["recovery"] = {{"review_start", nullptr}};
      },
      [](OJ& s) {
        s["recovery"] = {{"other", 1}};
      },
      [](OJ& s) { s["recovery"] = OJ::array({"review_start"}); },
      [](OJ& s) { s["recovery"] = "review_start"; },
      [](OJ& s) { s["initial_snapshot"] = "x"; },
      [](OJ& s) { s.erase("current_snapshot"); },
      [](OJ& s) { s["current_snapshot"]["extra"] = 1; },
      [](OJ& s) { SnapshotToJson(SampleSnapshot({"other.txt"}), &s["current_snapshot"]); },
      [](OJ& s) { s["current_snapshot"]["paths"] = OJ::array({"z.txt"}); },
  };
  for (const char* snap : {"initial_snapshot", "current_snapshot"}) {
    const std::string k = snap;
    for (const char* member :
         {"kind", "projection", "unborn_head", "base_tree", "candidate_tree", "paths_digest",
          "intended_untracked", "intended_untracked_proof", "ledger_ids", "paths", "identity"}) {
      const std::string m = member;
      for (const OJ& value :
           {OJ(nullptr), OJ("workspace"), OJ("staged"), OJ("bogus"), OJ(true), OJ(4),
            OJ(OJ::array()), OJ(OJ::array({"a.txt"})), OJ(OJ::array({1})), OJ(OJ::object())}) {
        edits.push_back([k, m, value](OJ& s) { s[k][m] = value; });
      }
      edits.push_back([k, m](OJ& s) { s[k].erase(m); });
    }
  }
  for (const char* member :
       {"zero_edit_escalation", "candidate_artifact_required", "risk_source", "lens_results",
        "findings", "classifications", "outcomes", "follow_ups"}) {
    const std::string m = member;
    for (const OJ& value : retired_values) {
      edits.push_back([m, value](OJ& s) { s[m] = value; });
    }
  }
  return edits;
}

}  // namespace

TEST_CASE("a record a writer produces is read without a JSON document") {
  const std::string text = Encode(SampleState());
  auto fields = ReadRecordEvents(text);
  REQUIRE(fields.has_value());
  CHECK(fields->lineage_id == "review-abc");
  CHECK(fields->generation == 1);
  CHECK(fields->initial_snapshot == SampleSnapshot({"a.txt", "b/c.txt"}));
  CHECK(fields->worktree_identity == "sha256:" + std::string(64, '1'));
  RequireSameAnswer(text);
}

TEST_CASE("the event read of a record answers as the DOM parse for every edited record") {
  size_t read_by_events = 0;
  for (const Edit& edit : Edits()) {
    OJ state = SampleState();
    edit(state);
    const std::string text = Encode(state);
    if (ReadRecordEvents(text)) ++read_by_events;
    RequireSameAnswer(text);
  }
  // Most edits keep the writer's shape: the event reader must really be what answers them.
  CHECK(read_by_events > 100);
}

TEST_CASE("the event read of a record answers as the DOM parse for hand-made texts") {
  const std::string good = Encode(SampleState());
  const std::string state_text = SampleState().dump();
  const std::string revision = StateRevision(state_text);
  const std::vector<std::string> texts = {
      // Duplicate keys in the envelope, the state, a snapshot, an unknown member.
      "{\"schema\":\"gentle-ai.review-state-record/v2\",\"schema\":\"x\",\"revision\":\"" +
          revision + "\",\"state\":" + state_text + "}",
      "{\"schema\":\"gentle-ai.review-state-record/v2\",\"revision\":\"" + revision +
          "\",\"state\":" + state_text.substr(0, state_text.size() - 1) +
          ",\"lineage_id\":\"review-abc\"}}",
      "{\"schema\":\"gentle-ai.review-state-record/v2\",\"revision\":\"" + revision +
          "\",\"state\":" + state_text.substr(0, state_text.size() - 1) +
          ",\"u\":{\"a\":1,\"a\":2}}}",
      // Another envelope member, a state that is not an object, a document that is not one.
      "{\"schema\":\"gentle-ai.review-state-record/v2\",\"revision\":\"" + revision +
          "\",\"state\":" + state_text + ",\"x\":1}",
      "{\"schema\":\"gentle-ai.review-state-record/v2\",\"revision\":\"" + revision +
          "\",\"state\":[]}",
      "[" + good + "]",
      "\xEF\xBB\xBF" + good,
      // Compact, and with odd whitespace.
      "{\"schema\":\"gentle-ai.review-state-record/v2\",\"revision\":\"" + revision +
          "\",\"state\":" + state_text + "}",
      "{ \"state\" :\n" + SampleState().dump(3) + ",\r\n\"revision\":\"" + revision +
          "\", \"schema\"\t:\"gentle-ai.review-state-record/v2\" }",
  };
  for (const std::string& text : texts) RequireSameAnswer(text);
}

TEST_CASE("the event read of a record answers as the DOM parse for damaged bytes") {
  const std::string good = Encode(SampleState());
  std::mt19937 rng(47);
  for (size_t cut = 0; cut < good.size(); cut += 7) RequireSameAnswer(good.substr(0, cut));
  const std::string alphabet = "{}[]\",:\\ 0-1.eE\x80\xC3tnf";
  for (int i = 0; i < 3000; ++i) {
    std::string text = good;
    const size_t at = rng() % text.size();
    text[at] = alphabet[rng() % alphabet.size()];
    RequireSameAnswer(text);
  }
}

}  // namespace gentle::store
