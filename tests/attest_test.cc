// review attest (docs/format.md, docs/attestation.md): the in-toto Statement v1 of an
// approval, checked against the Statement layer's rules (a checker written from the in-toto
// attestation spec v1: statement.md, resource_descriptor.md, digest_set.md), with exact values
// (trees, paths digest, the patch's sha256 against the pinned git CLI, the approval commit), for a
// burned approval too; every other state is refused; the command writes nothing.
#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <regex>

#include "export/git_flags.h"
#include "store/sha256.h"
#include "tests/support/files.h"
#include "tests/support/git_repo.h"
#include "tests/support/go_store.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

// The in-toto Statement v1 rules a consumer checks; "" when `s` keeps them, else the first
// broken rule.
std::string StatementViolation(const Json& s) {
  if (!s.is_object()) return "the Statement is not a JSON object";
  for (const auto& [key, value] : s.items()) {
    (void)value;
    if (key != "_type" && key != "subject" && key != "predicateType" && key != "predicate") {
      return "unknown member " + key;
    }
  }
  // _type: a TypeURI, always this value for v1.
  if (!s.contains("_type") || s["_type"] != "https://in-toto.io/Statement/v1") {
    return "_type is not https://in-toto.io/Statement/v1";
  }
  // subject: required, a non-empty array of ResourceDescriptors, each with digest set.
  if (!s.contains("subject") || !s["subject"].is_array() || s["subject"].empty()) {
    return "subject is not a non-empty array";
  }
  static const std::regex kLowerHex("^[0-9a-f]+$");
  for (const Json& d : s["subject"]) {
    if (!d.is_object()) return "a subject is not an object";
    for (const auto& [key, value] : d.items()) {
      (void)value;
      static const std::vector<std::string> kDescriptor = {
          "name", "uri", "digest", "content", "downloadLocation", "mediaType", "annotations"};
      if (std::find(kDescriptor.begin(), kDescriptor.end(), key) == kDescriptor.end()) {
        return "a subject has the unknown member " + key;
      }
    }
    if (d.contains("name") && !d["name"].is_string()) return "a subject's name is not a string";
    if (!d.contains("digest") || !d["digest"].is_object() || d["digest"].empty()) {
      return "a subject has no digest set";
    }
    // DigestSet: algorithm -> lowercase hex (the git algorithms are SHA-1 object ids here).
    for (const auto& [algorithm, digest] : d["digest"].items()) {
      if (!digest.is_string() || !std::regex_match(digest.get<std::string>(), kLowerHex)) {
        return "digest " + algorithm + " is not lowercase hex";
      }
      const size_t size = digest.get<std::string>().size();
      if ((algorithm == "gitTree" || algorithm == "gitCommit" || algorithm == "gitBlob" ||
           algorithm == "sha1") &&
          size != 40) {
        return "digest " + algorithm + " is not 40 hex digits";
      }
      if (algorithm == "sha256" && size != 64) return "digest sha256 is not 64 hex digits";
    }
  }
  // predicateType: required, a TypeURI (RFC 3986: a scheme, ':', no whitespace).
  static const std::regex kUri("^[A-Za-z][A-Za-z0-9+.-]*:[^\\s]+$");
  if (!s.contains("predicateType") || !s["predicateType"].is_string() ||
      !std::regex_match(s["predicateType"].get<std::string>(), kUri)) {
    return "predicateType is not a URI";
  }
  // predicate: optional, an object when present.
  if (s.contains("predicate") && !s["predicate"].is_object()) return "predicate is not an object";
  return "";
}

TEST_CASE("in-toto Statement checker refuses what the spec forbids") {
  const Json good =
      Json::parse(R"({"_type":"https://in-toto.io/Statement/v1","subject":[{"name":"x","digest":)"
                  R"({"gitTree":"0123456789abcdef0123456789abcdef01234567"}}],)"
                  R"("predicateType":"https://example.com/p/v1","predicate":{}})");
  CHECK(StatementViolation(good).empty());
  auto broken = [&](const std::function<void(Json&)>& edit) {
    Json s = good;
    edit(s);
    return StatementViolation(s);
  };
  CHECK(broken([](Json& s) { s["_type"] = "https://in-toto.io/Statement/v0.1"; }) != "");
  CHECK(broken([](Json& s) { s.erase("_type"); }) != "");
  CHECK(broken([](Json& s) { s["subject"] = Json::array(); }) != "");
  CHECK(broken([](Json& s) { s["subject"][0].erase("digest"); }) != "");
  CHECK(broken([](Json& s) { s["subject"][0]["digest"] = Json::object(); }) != "");
  CHECK(broken([](Json& s) {
          s["subject"][0]["digest"]["gitTree"] = "0123456789ABCDEF0123456789ABCDEF01234567";
        }) != "");
  CHECK(broken([](Json& s) { s["subject"][0]["digest"]["gitTree"] = "0123"; }) != "");
  CHECK(broken([](Json& s) { s["subject"][0]["digest"]["sha256"] = 7; }) != "");
  CHECK(broken([](Json& s) { s["predicateType"] = "not a uri"; }) != "");
  CHECK(broken([](Json& s) { s.erase("predicateType"); }) != "");
  CHECK(broken([](Json& s) { s["predicate"] = "text"; }) != "");
  CHECK(broken([](Json& s) { s["extra"] = 1; }) != "");
}

std::string Trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string GitOut(const LifecycleRepo& repo, const std::vector<std::string>& args) {
  RunResult run = repo.Git(args);
  INFO("git " << Json(args).dump() << ": " << run.err);
  REQUIRE(run.exit_code == 0);
  return Trimmed(run.out);
}

// The pinned git CLI's patch between two trees (the oracle of the export tests).
std::string OracleDiff(const LifecycleRepo& repo, const std::string& base,
                       const std::string& cand) {
  std::vector<std::string> argv = exporter::OracleArgv(base, cand);
  argv.erase(argv.begin());
  RunResult r = GitRun(repo.root(), argv, {{"GIT_ATTR_NOSYSTEM", "1"}});
  REQUIRE(r.exit_code == 0);
  return r.out;
}

// The Statement the approval of `lineage` must give, built from independent sources: the export
// envelope (trees, paths digest, derivation), the oracle's patch, the history ref.
std::string ExpectedStatement(const LifecycleRepo& repo, const std::string& lineage,
                              const std::string& revision, const std::string& approval_commit,
                              bool consumed) {
  const Json envelope = repo.Review({"export-context", "--lineage", lineage}).Json();
  const Json& snapshot = envelope["snapshot"];
  const std::string patch = OracleDiff(repo, snapshot["base_tree"], snapshot["candidate_tree"]);
  nlohmann::ordered_json s;
  s["_type"] = "https://in-toto.io/Statement/v1";
  nlohmann::ordered_json subject;
  subject["name"] = "git-tree:" + snapshot["candidate_tree"].get<std::string>();
  subject["digest"]["gitTree"] = snapshot["candidate_tree"];
  s["subject"] = nlohmann::ordered_json::array({subject});
  s["predicateType"] = "https://gentle-ai.dev/review-approval/v1";
  nlohmann::ordered_json& p = s["predicate"];
  p["lineage"] = lineage;
  p["revision"] = revision;
  p["verdict"] = "APPROVE";
  p["actor"] = "ana";
  p["role"] = "reviewer";
  p["base_tree"] = snapshot["base_tree"];
  p["candidate_tree"] = snapshot["candidate_tree"];
  p["paths_digest"] = snapshot["paths_digest"];
  p["patch_sha256"] = "sha256:" + store::Sha256Hex(patch);
  p["derivation"]["git_flags"] = envelope["derivation"]["git_flags"];
  p["derivation"]["engine"] = "native";
  p["derivation"]["tool_version"] = envelope["derivation"]["tool_version"];
  p["history_commit"] = approval_commit;
  p["consumed"] = consumed;
  p["source"] = nullptr;
  p["signed"] = false;
  return s.dump() + "\n";
}

TEST_CASE("attest: an approval's Statement is in-toto v1 with exact values and writes nothing") {
  LifecycleRepo repo;
  auto approved = repo.StartApproved();
  const std::string approval_commit =
      GitOut(repo, {"rev-parse", "refs/gentle-ai/reviews/" + approved.lineage});
  const auto store_before = repo.StoreBytes();
  const auto objects_before = HashTree(repo.common_dir() + "/objects");

  RunResult attest = repo.Review({"attest", "--lineage", approved.lineage}, {}, false);
  INFO(attest.out << attest.err);
  REQUIRE(attest.exit_code == 0);
  CHECK(attest.err.empty());
  CHECK(StatementViolation(Json::parse(attest.out)).empty());
  CHECK(attest.out ==
        ExpectedStatement(repo, approved.lineage, approved.revision, approval_commit, false));
  // The patch digest is the one verify reports for the same lineage.
  const Json verify = repo.Review({"verify", "--lineage", approved.lineage}).Json();
  CHECK(Json::parse(attest.out)["predicate"]["patch_sha256"] == verify["sha256"]);

  // --json changes only how errors print; --output writes the same bytes, atomically.
  CHECK(repo.Review({"attest", "--lineage", approved.lineage}).out == attest.out);
  TempDir out_dir;
  const std::string file = out_dir.path() + "/statement.json";
  RunResult written =
      repo.Review({"attest", "--lineage", approved.lineage, "--output", file}, {}, false);
  REQUIRE(written.exit_code == 0);
  CHECK(written.out.empty());
  CHECK(ReadFile(file) == attest.out);
  // No temp file is left beside it.
  CHECK(HashTree(out_dir.path()).size() == 2);  // the directory and statement.json

  // Read-only: the store, its refs and the object database are byte-identical.
  CHECK(repo.StoreBytes() == store_before);
  CHECK(HashTree(repo.common_dir() + "/objects") == objects_before);
}

TEST_CASE("attest: a burned approval attests from the history's burn commit - consumed true") {
  LifecycleRepo repo;
  auto approved = repo.StartApproved();
  const std::string approval_commit =
      GitOut(repo, {"rev-parse", "refs/gentle-ai/reviews/" + approved.lineage});
  const std::string expected =
      ExpectedStatement(repo, approved.lineage, approved.revision, approval_commit, false);
  REQUIRE(repo.Review({"burn", "--lineage", approved.lineage, "--token", approved.token,
                       "--expected-revision", approved.revision})
              .exit_code == 0);
  // The tip is now the terminal burn commit; the approval is its parent.
  REQUIRE(GitOut(repo, {"rev-parse", "refs/gentle-ai/reviews/" + approved.lineage + "~1"}) ==
          approval_commit);
  const auto store_before = repo.StoreBytes();
  RunResult attest = repo.Review({"attest", "--lineage", approved.lineage});
  INFO(attest.out << attest.err);
  REQUIRE(attest.exit_code == 0);
  CHECK(StatementViolation(Json::parse(attest.out)).empty());
  // Everything as before the burn, but consumed.
  const std::string consumed_true =
      std::regex_replace(expected, std::regex("\"consumed\":false,"), "\"consumed\":true,");
  REQUIRE(consumed_true != expected);
  CHECK(attest.out == consumed_true);
  CHECK(repo.StoreBytes() == store_before);
}

TEST_CASE("attest: every other state is refused with its code - nothing written") {
  LifecycleRepo repo;
  const std::string reviewing = repo.StartNew()["lineage"];
  const std::string changes = repo.StartNew()["lineage"];
  REQUIRE(repo.Review({"verdict", "--lineage", changes, "--verdict", "REQUEST_CHANGES", "--actor",
                       "ana", "--role", "reviewer", "--body", "no"})
              .exit_code == 0);
  const std::string abandoned = repo.StartNew()["lineage"];
  REQUIRE(repo.Review({"abandon", "--lineage", abandoned, "--reason", "operator_disposition",
                       "--actor", "ops"})
              .exit_code == 0);
  const auto store_before = repo.StoreBytes();
  struct Case {
    std::string lineage;
    int exit_code;
    const char* code;
  };
  for (const Case& c :
       {Case{reviewing, 6, "wrong_state"}, Case{changes, 6, "wrong_state"},
        Case{abandoned, 5, "retired"}, Case{"review-00000000deadbeef", 3, "not_found"},
        Case{"bad id", 2, "usage"}}) {
    INFO(c.lineage);
    TempDir out_dir;
    RunResult run = repo.Review(
        {"attest", "--lineage", c.lineage, "--output", out_dir.path() + "/statement.json"});
    CHECK(run.exit_code == c.exit_code);
    CHECK(run.Json()["error"]["code"] == c.code);
    CHECK(HashTree(out_dir.path()).size() == 1);  // the directory alone
  }
  const Json wrong = repo.Review({"attest", "--lineage", changes}).Json();
  CHECK(wrong["error"]["details"]["state"] == "correction_required");
  CHECK(repo.StoreBytes() == store_before);
}

TEST_CASE("attest: an approval the Go gentle-ai gave has no actor - role - history commit") {
  LifecycleRepo repo;
  GoStore g = BuildGoStore(repo);
  const auto before = repo.StoreBytes();
  RunResult attest = repo.Review({"attest", "--lineage", g.approved});
  INFO(attest.out << attest.err);
  REQUIRE(attest.exit_code == 0);
  const Json statement = Json::parse(attest.out);
  CHECK(StatementViolation(statement).empty());
  const Json& p = statement["predicate"];
  CHECK(p["actor"].is_null());
  CHECK(p["role"].is_null());
  CHECK(p["history_commit"].is_null());
  CHECK(p["verdict"] == "APPROVE");
  CHECK(p["consumed"] == false);
  const Json envelope = repo.Review({"export-context", "--lineage", g.approved}).Json();
  CHECK(p["candidate_tree"] == envelope["snapshot"]["candidate_tree"]);
  CHECK(p["patch_sha256"] == envelope["candidate_diff"]["sha256"]);
  // Burned by gentle-ai: no history holds the approval.
  RunResult burned = repo.Review({"attest", "--lineage", g.burned});
  CHECK(burned.exit_code == 4);
  CHECK(burned.Json()["error"]["code"] == "consumed");
  CHECK(repo.Review({"attest", "--lineage", g.live}).Json()["error"]["code"] == "wrong_state");
  CHECK(repo.StoreBytes() == before);
}

}  // namespace
}  // namespace gentle::testing
