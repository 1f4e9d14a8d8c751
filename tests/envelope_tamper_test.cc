// verify --envelope against tampered envelopes, in a fresh clone with no store: whatever the
// clone's objects can re-derive (the changed-path manifest, the derivation's flags, the budget)
// must match, else integrity_mismatch (exit 10); the state must be approved, else wrong_state
// (exit 6); and what cannot be re-derived (lineage, revision, state) verifies but is reported as
// self-asserted. Each run leaves the clone byte-identical.
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"
#include "tests/support/hostile.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::ordered_json;

// A lineage with a modification and an added file, approved, its envelope exported, the
// candidate committed, and a clone of that commit with no store.
struct ApprovedEnvelope {
  TempDir tmp;
  std::string repo;
  std::string lineage;
  std::string clone;
  Json envelope;
  Json reviewing_envelope;  // the same lineage's envelope before the approval

  ApprovedEnvelope() {
    repo = InitRepo(tmp.path());
    WriteFile(repo + "/a.txt", "alpha\nchanged\n");
    WriteFile(repo + "/new.txt", "brand new\n");
    Git(repo, {"add", "new.txt"});
    RunResult start = GentleAi({"review", "start", "--json"}, repo);
    REQUIRE(start.exit_code == 0);
    lineage = nlohmann::json::parse(start.out)["lineage"];
    reviewing_envelope = Export();
    RunResult verdict =
        GentleAi({"review", "verdict", "--json", "--lineage", lineage, "--verdict", "APPROVE",
                  "--actor", "ana", "--role", "reviewer", "--body", "LGTM"},
                 repo);
    INFO(verdict.out << verdict.err);
    REQUIRE(verdict.exit_code == 0);
    envelope = Export();
    REQUIRE(envelope["state"] == "approved");
    Git(repo, {"add", "-A"});
    Git(repo, {"commit", "-q", "-m", "candidate"});
    clone = tmp.path() + "/ci";
    Git(tmp.path(), {"clone", "-q", repo, clone});
  }

  Json Export() {
    RunResult r = GentleAi({"review", "export-context", "--json", "--lineage", lineage}, repo);
    REQUIRE(r.exit_code == 0);
    return Json::parse(r.out);
  }

  // verify --envelope of `doc` in the clone, expecting `exit_code` and (unless 0) `code`;
  // returns the JSON output.
  nlohmann::json Verify(const Json& doc, int exit_code, const std::string& code,
                        const std::string& against = "HEAD") {
    const std::string file = tmp.path() + "/envelope.json";
    WriteFile(file, doc.dump());
    std::vector<std::string> args = {"review", "verify", "--envelope", file};
    if (!against.empty()) args.insert(args.end(), {"--against", against});
    return ExpectOutcome(args, clone, exit_code, code);
  }
};

void CheckSelfAsserted(const nlohmann::json& out) {
  REQUIRE(out.contains("self_asserted"));
  for (const char* member : {"lineage", "revision", "state"}) {
    CHECK(std::find(out["self_asserted"].begin(), out["self_asserted"].end(), member) !=
          out["self_asserted"].end());
  }
  REQUIRE(out.contains("checked"));
  for (const char* member : {"candidate_diff", "changed_path_manifest", "derivation.git_flags",
                             "budget", "snapshot.paths_digest"}) {
    CHECK(std::find(out["checked"].begin(), out["checked"].end(), member) != out["checked"].end());
  }
}

}  // namespace

TEST_CASE("an approved envelope verifies and says what is self-asserted") {
  ApprovedEnvelope f;
  nlohmann::json out = f.Verify(f.envelope, 0, "");
  CHECK(out["verified"] == true);
  CHECK(out["state"] == "approved");
  CheckSelfAsserted(out);
  const std::string file = f.tmp.path() + "/human.json";
  WriteFile(file, f.envelope.dump());
  RunResult human = GentleAi({"review", "verify", "--envelope", file}, f.clone);
  CHECK(human.exit_code == 0);
  CHECK(human.out.find("self-asserted") != std::string::npos);
}

TEST_CASE("an envelope with an emptied changed_path_manifest is integrity_mismatch") {
  ApprovedEnvelope f;
  Json bad = f.envelope;
  REQUIRE(bad["changed_path_manifest"].size() == 2);
  bad["changed_path_manifest"] = Json::array();
  f.Verify(bad, 10, "integrity_mismatch");
  f.Verify(bad, 10, "integrity_mismatch", "");
}

TEST_CASE("a manifest entry with a wrong oid is integrity_mismatch") {
  ApprovedEnvelope f;
  for (const char* field : {"old_oid", "new_oid"}) {
    INFO(field);
    Json bad = f.envelope;
    std::string oid = bad["changed_path_manifest"][0][field];
    oid[0] = oid[0] == 'a' ? 'b' : 'a';
    bad["changed_path_manifest"][0][field] = oid;
    f.Verify(bad, 10, "integrity_mismatch");
  }
  Json swapped = f.envelope;
  std::swap(swapped["changed_path_manifest"][0]["new_oid"],
            swapped["changed_path_manifest"][1]["new_oid"]);
  f.Verify(swapped, 10, "integrity_mismatch");
  Json status = f.envelope;
  status["changed_path_manifest"][1]["status"] = "M";
  f.Verify(status, 10, "integrity_mismatch");
}

TEST_CASE("an added ../../etc/passwd manifest entry is integrity_mismatch") {
  ApprovedEnvelope f;
  Json bad = f.envelope;
  Json entry = bad["changed_path_manifest"][1];
  entry["path"] = "../../etc/passwd";
  bad["changed_path_manifest"].push_back(entry);
  f.Verify(bad, 10, "integrity_mismatch");
  Json extra_member = f.envelope;
  extra_member["changed_path_manifest"][0]["note"] = "trust me";
  f.Verify(extra_member, 10, "integrity_mismatch");
}

TEST_CASE("an envelope whose state is not approved is wrong_state") {
  ApprovedEnvelope f;
  for (const char* state : {"reviewing", "invalidated", "correction_required", ""}) {
    INFO(state);
    Json bad = f.envelope;
    bad["state"] = state;
    nlohmann::json out = f.Verify(bad, 6, "wrong_state");
    CHECK(out["error"]["lineage"] == f.lineage);
  }
  // The envelope exported before the approval, untouched, is not an approval either.
  f.Verify(f.reviewing_envelope, 6, "wrong_state");
  f.Verify(f.reviewing_envelope, 6, "wrong_state", "");
}

TEST_CASE("a forged approved state verifies only as self-asserted") {
  ApprovedEnvelope f;
  Json forged = f.reviewing_envelope;
  forged["state"] = "approved";
  nlohmann::json out = f.Verify(forged, 0, "");
  CHECK(out["state"] == "approved");
  CheckSelfAsserted(out);
}

TEST_CASE(
    "a changed lineage or revision verifies only as self-asserted - a malformed one does not") {
  ApprovedEnvelope f;
  Json lineage = f.envelope;
  lineage["lineage"] = "review-0123456789abcdef";
  nlohmann::json out = f.Verify(lineage, 0, "");
  CHECK(out["lineage"] == "review-0123456789abcdef");
  CheckSelfAsserted(out);
  Json revision = f.envelope;
  revision["revision"] = "sha256:" + std::string(64, 'e');
  CheckSelfAsserted(f.Verify(revision, 0, ""));

  for (const std::string& bad_revision :
       {std::string("sha256:") + std::string(63, 'e'),
        std::string("sha256:") + std::string(64, 'E'), std::string("md5:") + std::string(64, 'e'),
        std::string("")}) {
    INFO(bad_revision);
    Json bad = f.envelope;
    bad["revision"] = bad_revision;
    f.Verify(bad, 10, "integrity_mismatch");
  }
  Json bad_lineage = f.envelope;
  bad_lineage["lineage"] = "../v2";
  f.Verify(bad_lineage, 10, "integrity_mismatch");
}

TEST_CASE("next is self-asserted - the envelope verifies with it changed or absent") {
  ApprovedEnvelope f;
  CHECK(f.envelope["next"] == "burn");
  CHECK(f.envelope["next_reason"] == "approved");
  CHECK(f.reviewing_envelope["next"] == "verdict");
  CHECK(f.reviewing_envelope["next_reason"] == "context_exported");
  // The last two members: every other one is where it was.
  const std::vector<std::string> last = {std::prev(f.envelope.end(), 2).key(),
                                         std::prev(f.envelope.end()).key()};
  CHECK(last == std::vector<std::string>{"next", "next_reason"});
  nlohmann::json out = f.Verify(f.envelope, 0, "");
  for (const char* member : {"next", "next_reason"}) {
    CHECK(std::find(out["self_asserted"].begin(), out["self_asserted"].end(), member) !=
          out["self_asserted"].end());
  }
  for (const Json& next : {Json("start"), Json("none"), Json("not-a-next-action"), Json(7)}) {
    INFO(next.dump());
    Json changed = f.envelope;
    changed["next"] = next;
    changed["next_reason"] = next;
    CheckSelfAsserted(f.Verify(changed, 0, ""));
  }
  // Envelopes written before the members existed.
  Json older = f.envelope;
  older.erase("next_reason");
  CheckSelfAsserted(f.Verify(older, 0, ""));
  older.erase("next");
  CheckSelfAsserted(f.Verify(older, 0, ""));
  // The strict parser still refuses a second copy of it.
  const std::string file = f.tmp.path() + "/twice.json";
  std::string twice = f.envelope.dump();
  twice.insert(twice.size() - 1, ",\"next\":\"none\"");
  WriteFile(file, twice);
  ExpectOutcome({"review", "verify", "--envelope", file, "--against", "HEAD"}, f.clone, 10,
                "integrity_mismatch");
}

TEST_CASE("a changed budget is integrity_mismatch") {
  ApprovedEnvelope f;
  const uint64_t used = f.envelope["budget"]["used_bytes"];
  std::vector<Json> bad(5, f.envelope);
  bad[0]["budget"]["max_bytes"] = 999999999;
  bad[1]["budget"]["max_bytes"] = used;
  bad[2]["budget"]["used_bytes"] = used + 1;
  bad[3]["budget"]["note"] = "bigger";
  bad[4].erase("budget");
  for (size_t i = 0; i < bad.size(); ++i) {
    INFO("case " << i);
    f.Verify(bad[i], 10, "integrity_mismatch");
  }
}

TEST_CASE("a changed derivation is integrity_mismatch") {
  ApprovedEnvelope f;
  std::vector<Json> bad(6, f.envelope);
  bad[0]["derivation"]["git_flags"].erase(0);  // no --binary
  bad[1]["derivation"]["git_flags"][6] = "--diff-algorithm=histogram";
  bad[2]["derivation"]["git_flags"].push_back("--ignore-all-space");
  bad[3]["derivation"]["engine"] = "hand-written";
  bad[4]["derivation"]["extra"] = true;
  bad[5].erase("derivation");
  for (size_t i = 0; i < bad.size(); ++i) {
    INFO("case " << i);
    f.Verify(bad[i], 10, "integrity_mismatch");
  }
  // Either engine writes the same bytes: which one did is self-asserted.
  Json git = f.envelope;
  git["derivation"]["engine"] = "git";
  CheckSelfAsserted(f.Verify(git, 0, ""));
}

}  // namespace gentle::testing
