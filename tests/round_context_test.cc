// A review round bound to its forge review context (DESIGN.md section 12): `start --context` and
// `revise --context` put the context's comment ids into the snapshot's ledger ids and keep the file
// in the history; `--context-unavailable` caps APPROVE for that round (`context_unavailable`).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "store/record.h"
#include "store/sha256.h"
#include "store/status.h"
#include "tests/support/files.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

constexpr char kContext[] =
    "{\"schema\":\"gentle-ai.review-context/v1\",\"title\":\"Greet\",\"comments\":["
    "{\"id\":\"30\",\"body\":\"a\"},{\"id\":\"4\",\"body\":\"b\"},{\"id\":\"30\",\"body\":\"c\"},"
    "{\"id\":\"100\",\"unknown\":[1,2]}]}\n";

std::string RecordPath(const LifecycleRepo& repo, const std::string& lineage) {
  return repo.store_root() + "/v2/" + lineage + "/review-state.json";
}

Json RecordState(const LifecycleRepo& repo, const std::string& lineage) {
  return Json::parse(ReadFile(RecordPath(repo, lineage)))["state"];
}

Json Ok(const LifecycleRepo& repo, const std::vector<std::string>& args) {
  RunResult run = repo.Review(args);
  INFO("args: " << Json(args).dump() << "\nstdout: " << run.out << "\nstderr: " << run.err);
  REQUIRE(run.exit_code == 0);
  return run.Json();
}

void ExpectRefused(const LifecycleRepo& repo, const std::vector<std::string>& args,
                   const std::string& code, int exit_code) {
  auto before = repo.StoreBytes();
  RunResult run = repo.Review(args);
  INFO("args: " << Json(args).dump() << "\nstdout: " << run.out << "\nstderr: " << run.err);
  CHECK(run.exit_code == exit_code);
  CHECK(run.Json()["error"]["code"] == code);
  CHECK(repo.StoreBytes() == before);
}

std::vector<std::string> Verdict(const std::string& lineage, const std::string& verdict,
                                 const std::string& role = "reviewer") {
  return {"verdict", "--lineage", lineage, "--verdict", verdict, "--actor",
          "ana",     "--role",    role,    "--body",    "b"};
}

std::string Trailer(const LifecycleRepo& repo, const std::string& rev, const std::string& key) {
  std::string value =
      repo.GitOk({"log", "-1", "--format=%(trailers:key=" + key + ",valueonly)", rev});
  while (!value.empty() && value.back() == '\n') value.pop_back();
  return value;
}

TEST_CASE("context_unavailable is appended to the code vocabulary with exit 6") {
  CHECK(CodeName(Code::kContextUnavailable) == "context_unavailable");
  CHECK(ExitCodeFor(Code::kContextUnavailable) == 6);
  CHECK(static_cast<int>(Code::kContextUnavailable) == static_cast<int>(Code::kUntrusted) + 1);
}

TEST_CASE("start --context binds the comment ids as ledger ids - the file stays in the history") {
  LifecycleRepo repo;
  const std::string file = repo.root() + "/../context.json";
  WriteFile(file, kContext);
  repo.Write("a.txt", "changed\n");
  Json plain_status = Ok(repo, {"status"});
  Json started = Ok(repo, {"start", "--context", file});
  const std::string lineage = started["lineage"];
  const Json state = RecordState(repo, lineage);
  CHECK(state["initial_snapshot"]["ledger_ids"] == Json::array({"4", "30", "100"}));
  CHECK(state["current_snapshot"]["ledger_ids"] == Json::array({"4", "30", "100"}));
  auto record = store::ParseRecordFile(ReadFile(RecordPath(repo, lineage)), lineage);
  REQUIRE(record.ok());
  CHECK(store::ComputeSnapshotIdentity(record->current_snapshot) == started["target_identity"]);

  const std::string ref = ReviewRef(lineage);
  CHECK(repo.GitOk({"show", ref + ":context.json"}) == kContext);
  CHECK(Trailer(repo, ref, "Context") == "sha256:" + store::Sha256Hex(kContext));
  // The live target is recomputed with the round's ledger ids: the lineage is the current target.
  Json status = Ok(repo, {"status", "--lineage", lineage});
  CHECK(status["lineages"][0]["applicability"] == "current_target");
  // The same candidate without a context is another target, so another lineage.
  Json other = Ok(repo, {"start"});
  CHECK(other["lineage"] != lineage);
  CHECK(other["target_identity"] != started["target_identity"]);
  ExpectFsckClean(repo);
}

TEST_CASE("a context file that is not a ReviewContext is usage - nothing is written") {
  LifecycleRepo repo;
  repo.Write("a.txt", "changed\n");
  const std::string dir = repo.root() + "/..";
  struct Bad {
    std::string bytes, message;
  };
  const std::vector<Bad> bad = {
      {"{not json", "not valid JSON"},
      {"[]", "$: expected an object"},
      {"{\"schema\":\"gentle-ai.review-context/v2\",\"comments\":[]}",
       "$.schema: expected \"gentle-ai.review-context/v1\""},
      {"{\"schema\":\"gentle-ai.review-context/v1\"}", "$.comments: expected an array"},
      {"{\"schema\":\"gentle-ai.review-context/v1\",\"comments\":[{\"id\":7}]}",
       "$.comments[0].id: expected a string"},
      {"{\"schema\":\"gentle-ai.review-context/v1\",\"comments\":[{\"id\":\"1\"},{\"id\":\"07\"}]}",
       "$.comments[1].id: expected a decimal comment id"},
  };
  for (const Bad& b : bad) {
    WriteFile(dir + "/bad.json", b.bytes);
    ExpectRefused(repo, {"start", "--context", dir + "/bad.json"}, "usage", 2);
    RunResult run = repo.Review({"start", "--context", dir + "/bad.json"});
    CHECK(run.Json()["error"]["message"] == "--context " + dir + "/bad.json: " + b.message);
  }
  ExpectRefused(repo, {"start", "--context", dir + "/missing.json"}, "usage", 2);
  ExpectRefused(repo, {"start", "--context", dir}, "usage", 2);
  WriteFile(dir + "/good.json", kContext);
  ExpectRefused(repo, {"start", "--context", dir + "/good.json", "--context-unavailable", "x"},
                "usage", 2);
  for (const std::string& reason :
       std::vector<std::string>{"", " padded", "two\nlines", std::string(513, 'r')}) {
    ExpectRefused(repo, {"start", "--context-unavailable", reason}, "usage", 2);
  }
  CHECK(repo.GitOk({"for-each-ref", "refs/gentle-ai"}).empty());
}

TEST_CASE("context-unavailable caps APPROVE in its round - a round with a context lifts it") {
  LifecycleRepo repo;
  repo.Write("a.txt", "changed\n");
  Json started = Ok(repo, {"start", "--context-unavailable", "gh pr view failed: HTTP 502"});
  const std::string lineage = started["lineage"];
  CHECK(Trailer(repo, ReviewRef(lineage), "Context-Unavailable") == "gh pr view failed: HTTP 502");
  CHECK(RecordState(repo, lineage).dump().find("context") == std::string::npos);
  ExpectRefused(repo, Verdict(lineage, "APPROVE"), "context_unavailable", 6);
  ExpectRefused(repo, Verdict(lineage, "APPROVE", "docs-reviewer"), "context_unavailable", 6);
  RunResult capped = repo.Review(Verdict(lineage, "APPROVE"));
  CHECK(capped.Json()["error"]["details"]["reason"] == "gh pr view failed: HTTP 502");
  CHECK(capped.Json()["error"]["details"]["round"] == "1");
  // The other verdicts stand.
  Ok(repo, Verdict(lineage, "FIXED", "docs-reviewer"));
  Ok(repo, Verdict(lineage, "REQUEST_CHANGES"));

  // A second round still without its context keeps the cap.
  repo.Write("a.txt", "fixed\n");
  Ok(repo, {"revise", "--lineage", lineage, "--context-unavailable", "still failing"});
  ExpectRefused(repo, Verdict(lineage, "APPROVE"), "context_unavailable", 6);
  Ok(repo, Verdict(lineage, "REQUEST_CHANGES"));

  // A third round with its context lifts it.
  const std::string file = repo.root() + "/../context.json";
  WriteFile(file, kContext);
  repo.Write("a.txt", "fixed again\n");
  Json revised = Ok(repo, {"revise", "--lineage", lineage, "--context", file});
  CHECK(revised["round"] == 3);
  CHECK(RecordState(repo, lineage)["current_snapshot"]["ledger_ids"] ==
        Json::array({"4", "30", "100"}));
  CHECK(RecordState(repo, lineage)["initial_snapshot"].count("ledger_ids") == 0);  // omitempty
  CHECK(Trailer(repo, ReviewRef(lineage), "Context-Unavailable").empty());
  CHECK(repo.GitOk({"show", ReviewRef(lineage) + ":context.json"}) == kContext);
  Json status = Ok(repo, {"status", "--lineage", lineage});
  CHECK(status["lineages"][0]["applicability"] == "current_target");
  Json approved = Ok(repo, Verdict(lineage, "APPROVE"));
  CHECK(approved["state"] == "approved");
  ExpectFsckClean(repo);
}

TEST_CASE("an idempotent start with another binding of the round is conflict") {
  LifecycleRepo repo;
  repo.Write("a.txt", "changed\n");
  Json started = Ok(repo, {"start", "--context-unavailable", "offline"});
  Json again = Ok(repo, {"start", "--context-unavailable", "offline"});
  CHECK(again["lineage"] == started["lineage"]);
  CHECK(again["created"] == false);
  ExpectRefused(repo, {"start"}, "conflict", 11);
  ExpectRefused(repo, {"start", "--context-unavailable", "another reason"}, "conflict", 11);
  RunResult run = repo.Review({"start"});
  CHECK(run.Json()["error"]["details"]["context_unavailable"] == "offline");
}

}  // namespace
}  // namespace gentle::testing
