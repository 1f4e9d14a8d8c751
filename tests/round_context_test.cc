// A review round bound to its forge review context (docs/loop.md): `start --context` and
// `revise --context` put the context's comment ids into the snapshot's ledger ids and keep the file
// in the history; `--context-unavailable` caps APPROVE for that round (`context_unavailable`).
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "store/record.h"
#include "store/sha256.h"
#include "store/status.h"
#include "tests/support/files.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "transaction/start.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

// What `review context import` wrote for the GitHub fixture (its comment ids: 3001, 3004, 1001,
// 1004, 3002, 1002, 1003).
const std::string kContextFile =
    std::string(GENTLE_FIXTURES_DIR) + "/forge/github/expected-context.json";
const Json kLedgerIds = Json::array({"1001", "1002", "1003", "1004", "3001", "3002", "3004"});

// A ReviewContext by hand: what the transaction reads of it, but not the bytes an import writes.
constexpr char kHandWritten[] =
    "{\"schema\":\"gentle-ai.review-context/v1\",\"comments\":["
    "{\"id\":\"30\"},{\"id\":\"4\"},{\"id\":\"30\"},{\"id\":\"100\",\"x\":[1]}]}";

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
  repo.Write("a.txt", "changed\n");
  Json started = repo.ReviewOk({"start", "--context", kContextFile});
  const std::string lineage = started["lineage"];
  const Json state = repo.RecordState(lineage);
  CHECK(state["initial_snapshot"]["ledger_ids"] == kLedgerIds);
  CHECK(state["current_snapshot"]["ledger_ids"] == kLedgerIds);
  auto record = store::ParseRecordFile(ReadFile(repo.record_path(lineage)), lineage);
  REQUIRE(record.ok());
  CHECK(store::ComputeSnapshotIdentity(record->current_snapshot) == started["target_identity"]);

  const std::string ref = ReviewRef(lineage);
  CHECK(repo.GitOk({"show", ref + ":context.json"}) == ReadFile(kContextFile));
  CHECK(Trailer(repo, ref, "Context") == "sha256:" + store::Sha256Hex(ReadFile(kContextFile)));
  // The live target is recomputed with the round's ledger ids: the lineage is the current target.
  Json status = repo.ReviewOk({"status", "--lineage", lineage});
  CHECK(status["lineages"][0]["applicability"] == "current_target");
  CHECK(status["lineages"][0]["context_digest"] ==
        "sha256:" + store::Sha256Hex(ReadFile(kContextFile)));
  CHECK(status["lineages"][0]["context_unavailable"].is_null());
  Json envelope = repo.ReviewOk({"export-context", "--lineage", lineage});
  CHECK(envelope["context_digest"] == status["lineages"][0]["context_digest"]);
  CHECK(envelope["context_unavailable"].is_null());
  // The same candidate without a context is another target, but the bound lineage is the live
  // lineage of its selector (one live lineage per PR, docs/lifecycle.md): start answers it.
  Json other = repo.ReviewOk({"start"});
  CHECK(other["lineage"] == lineage);
  CHECK(other["created"] == false);
  CHECK(other["target_identity"] == started["target_identity"]);
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
    const std::string file = dir + "/bad.json";
    WriteFile(file, b.bytes);
    // The command line reads it through the strict ReviewContext reader (forge/review_context.h).
    repo.ExpectRefused({"start", "--context", file}, "usage", 2);
    CHECK(repo.Review({"start", "--context", file})
              .Json()["error"]["message"]
              .get<std::string>()
              .find(file) != std::string::npos);
    // The transaction's own reading, for library callers, names the JSON path.
    auto library =
        transaction::Start({repo.root(), {}, {file, std::nullopt, std::nullopt}, std::nullopt});
    REQUIRE_FALSE(library.ok());
    CHECK(library.status().code() == Code::kUsage);
    CHECK(library.status().message() == "--context " + file + ": " + b.message);
  }
  // Bytes an import did not write are refused on the command line, however well-formed.
  WriteFile(dir + "/hand.json", kHandWritten);
  repo.ExpectRefused({"start", "--context", dir + "/hand.json"}, "usage", 2);
  repo.ExpectRefused({"start", "--context", dir + "/missing.json"}, "usage", 2);
  repo.ExpectRefused({"start", "--context", kContextFile, "--context-unavailable", "x"}, "usage",
                     2);
  for (const std::string& reason :
       std::vector<std::string>{"", " padded", "two\nlines", std::string(513, 'r')}) {
    repo.ExpectRefused({"start", "--context-unavailable", reason}, "usage", 2);
  }
  CHECK(repo.GitOk({"for-each-ref", "refs/gentle-ai"}).empty());
  // The library reads what it needs of a hand-written one: ids in numeric order, each once.
  auto library = transaction::Start(
      {repo.root(), {}, {dir + "/hand.json", std::nullopt, std::nullopt}, std::nullopt});
  REQUIRE(library.ok());
  CHECK(repo.RecordState(library->lineage)["current_snapshot"]["ledger_ids"] ==
        Json::array({"4", "30", "100"}));
}

TEST_CASE("start --context with a number out of range is usage naming its JSON path") {
  LifecycleRepo repo;
  repo.Write("a.txt", "changed\n");
  const std::string file = repo.root() + "/../range.json";
  WriteFile(file, R"({"schema":"gentle-ai.review-context/v1","additions":-1e999,"comments":[]})");
  repo.ExpectRefused({"start", "--context", file}, "usage", 2);
  const Json error = repo.Review({"start", "--context", file}).Json()["error"];
  CHECK(error["message"] ==
        "review context (" + file + "): additions: a number out of range: -1e999");
  CHECK(error["details"]["json_path"] == "additions");
  CHECK(repo.GitOk({"for-each-ref", "refs/gentle-ai"}).empty());
}

TEST_CASE("context-unavailable caps APPROVE in its round - a round with a context lifts it") {
  LifecycleRepo repo;
  repo.Write("a.txt", "changed\n");
  Json started = repo.ReviewOk({"start", "--context-unavailable", "gh pr view failed: HTTP 502"});
  const std::string lineage = started["lineage"];
  CHECK(Trailer(repo, ReviewRef(lineage), "Context-Unavailable") == "gh pr view failed: HTTP 502");
  Json marked = repo.ReviewOk({"status", "--lineage", lineage});
  CHECK(marked["lineages"][0]["context_unavailable"] == "gh pr view failed: HTTP 502");
  CHECK(marked["lineages"][0]["context_digest"].is_null());
  Json marked_envelope = repo.ReviewOk({"export-context", "--lineage", lineage});
  CHECK(marked_envelope["context_unavailable"] == "gh pr view failed: HTTP 502");
  CHECK(marked_envelope["context_digest"].is_null());
  CHECK(repo.RecordState(lineage).dump().find("context") == std::string::npos);
  repo.ExpectRefused(Verdict(lineage, "APPROVE"), "context_unavailable", 6);
  repo.ExpectRefused(Verdict(lineage, "APPROVE", "docs-reviewer"), "context_unavailable", 6);
  RunResult capped = repo.Review(Verdict(lineage, "APPROVE"));
  CHECK(capped.Json()["error"]["details"]["reason"] == "gh pr view failed: HTTP 502");
  CHECK(capped.Json()["error"]["details"]["round"] == "1");
  // The other verdicts stand.
  repo.ReviewOk(Verdict(lineage, "FIXED", "docs-reviewer"));
  repo.ReviewOk(Verdict(lineage, "REQUEST_CHANGES"));

  // A second round still without its context keeps the cap.
  repo.Write("a.txt", "fixed\n");
  repo.ReviewOk({"revise", "--lineage", lineage, "--context-unavailable", "still failing"});
  repo.ExpectRefused(Verdict(lineage, "APPROVE"), "context_unavailable", 6);
  repo.ReviewOk(Verdict(lineage, "REQUEST_CHANGES"));

  // A third round with its context lifts it.
  repo.Write("a.txt", "fixed again\n");
  Json revised = repo.ReviewOk({"revise", "--lineage", lineage, "--context", kContextFile});
  CHECK(revised["round"] == 3);
  CHECK(repo.RecordState(lineage)["current_snapshot"]["ledger_ids"] == kLedgerIds);
  CHECK(repo.RecordState(lineage)["initial_snapshot"].count("ledger_ids") == 0);  // omitempty
  CHECK(Trailer(repo, ReviewRef(lineage), "Context-Unavailable").empty());
  CHECK(repo.GitOk({"show", ReviewRef(lineage) + ":context.json"}) == ReadFile(kContextFile));
  Json status = repo.ReviewOk({"status", "--lineage", lineage});
  CHECK(status["lineages"][0]["applicability"] == "current_target");
  CHECK(status["lineages"][0]["context_unavailable"].is_null());  // lifted in round three
  CHECK(status["lineages"][0]["context_digest"] ==
        "sha256:" + store::Sha256Hex(ReadFile(kContextFile)));
  // Each round's export names that round's binding.
  Json round_one = repo.ReviewOk({"export-context", "--lineage", lineage, "--round", "1"});
  CHECK(round_one["context_unavailable"] == "gh pr view failed: HTTP 502");
  Json round_two = repo.ReviewOk({"export-context", "--lineage", lineage, "--round", "2"});
  CHECK(round_two["context_unavailable"] == "still failing");
  Json round_three = repo.ReviewOk({"export-context", "--lineage", lineage});
  CHECK(round_three["context_unavailable"].is_null());
  CHECK(round_three["context_digest"] == "sha256:" + store::Sha256Hex(ReadFile(kContextFile)));
  Json approved = repo.ReviewOk(Verdict(lineage, "APPROVE"));
  CHECK(approved["state"] == "approved");
  ExpectFsckClean(repo);
}

TEST_CASE("git config gentle-ai.requireContext caps APPROVE of a round bound to no context") {
  LifecycleRepo repo;
  // Absent (today's behaviour): a round without a context approves.
  repo.Write("a.txt", "changed\n");
  const std::string open = repo.ReviewOk({"start"})["lineage"];
  repo.GitOk({"config", "gentle-ai.requireContext", "true"});
  repo.ExpectRefused(Verdict(open, "APPROVE"), "context_unavailable", 6);
  repo.ExpectRefused(Verdict(open, "APPROVE", "docs-reviewer"), "context_unavailable", 6);
  RunResult capped = repo.Review(Verdict(open, "APPROVE"));
  CHECK(capped.Json()["error"]["message"] ==
        "round 1 of lineage " + open +
            " is bound to no review context and git config gentle-ai.requireContext is true: "
            "APPROVE is capped; revise with --context to lift it");
  CHECK(capped.Json()["error"]["details"]["round"] == "1");
  CHECK(capped.Json()["error"]["details"]["config"] == "gentle-ai.requireContext");
  // A value git does not read as a boolean is usage, never a silent false.
  repo.GitOk({"config", "gentle-ai.requireContext", "maybe"});
  repo.ExpectRefused(Verdict(open, "APPROVE"), "usage", 2);
  // false (and yes/no spellings git reads) decide as told.
  repo.GitOk({"config", "gentle-ai.requireContext", "off"});
  Json approved = repo.ReviewOk(Verdict(open, "APPROVE"));
  CHECK(approved["state"] == "approved");

  // Required: the other verdicts stand, and a round revised with its context lifts the cap.
  repo.GitOk({"config", "gentle-ai.requireContext", "yes"});
  repo.Write("b.txt", "two\n");
  const std::string lineage = repo.ReviewOk({"start", "--untracked", "b.txt"})["lineage"];
  repo.ExpectRefused(Verdict(lineage, "APPROVE"), "context_unavailable", 6);
  repo.ReviewOk(Verdict(lineage, "FIXED", "docs-reviewer"));
  repo.ReviewOk(Verdict(lineage, "REQUEST_CHANGES"));
  repo.Write("b.txt", "three\n");
  repo.ReviewOk({"revise", "--lineage", lineage, "--context", kContextFile});
  CHECK(repo.ReviewOk(Verdict(lineage, "APPROVE"))["state"] == "approved");
  // A round started with its context approves at once.
  repo.Write("c.txt", "four\n");
  const std::string bound =
      repo.ReviewOk({"start", "--untracked", "c.txt", "--context", kContextFile})["lineage"];
  CHECK(repo.ReviewOk(Verdict(bound, "APPROVE"))["state"] == "approved");
  ExpectFsckClean(repo);
}

TEST_CASE("an idempotent start with another binding of the round is conflict") {
  LifecycleRepo repo;
  repo.Write("a.txt", "changed\n");
  Json started = repo.ReviewOk({"start", "--context-unavailable", "offline"});
  Json again = repo.ReviewOk({"start", "--context-unavailable", "offline"});
  CHECK(again["lineage"] == started["lineage"]);
  CHECK(again["created"] == false);
  repo.ExpectRefused({"start"}, "conflict", 11);
  repo.ExpectRefused({"start", "--context-unavailable", "another reason"}, "conflict", 11);
  RunResult run = repo.Review({"start"});
  CHECK(run.Json()["error"]["details"]["context_unavailable"] == "offline");
}

}  // namespace
TEST_CASE("the APPROVE cap in next: approve_capped and context_required before verdict meets it") {
  LifecycleRepo repo;
  // An export is the reviewer's next (status --role reviewer); the rest the author's.
  auto next = [&](const std::vector<std::string>& args) {
    const Json status = repo.ReviewOk(args);
    return status["next"].get<std::string>() + "/" + status["next_reason"].get<std::string>();
  };
  repo.Write("a.txt", "changed\n");
  CHECK(next({"status"}) == "start/no_lineage");
  // Marked context-unavailable: exported, then any verdict but APPROVE.
  const std::string marked =
      repo.ReviewOk({"start", "--context-unavailable", "gh: HTTP 502"})["lineage"];
  CHECK(next({"status", "--lineage", marked, "--role", "reviewer"}) == "export/approve_capped");
  Json envelope = repo.ReviewOk({"export-context", "--lineage", marked});
  CHECK(envelope["next"] == "verdict");
  CHECK(envelope["next_reason"] == "approve_capped");
  repo.ExpectRefused(Verdict(marked, "APPROVE"), "context_unavailable", 6);
  repo.ReviewOk(Verdict(marked, "REQUEST_CHANGES"));
  repo.Write("a.txt", "changed again\n");
  CHECK(next({"status", "--lineage", marked}) == "revise/candidate_changed");

  // gentle-ai.requireContext: the round to open needs --context; an open unbound round is capped.
  repo.GitOk({"config", "gentle-ai.requireContext", "true"});
  CHECK(next({"status", "--lineage", marked}) == "revise/context_required");
  CHECK(next({"status"}) == "revise/context_required");
  repo.Write("b.txt", "two\n");
  CHECK(next({"status", "--untracked", "b.txt"}) == "start/context_required");
  const std::string unbound = repo.ReviewOk({"start", "--untracked", "b.txt"})["lineage"];
  CHECK(next({"status", "--lineage", unbound, "--role", "reviewer"}) == "export/approve_capped");
  repo.ExpectRefused(Verdict(unbound, "APPROVE"), "context_unavailable", 6);
  // A value git does not read as a boolean: verdict refuses APPROVE with usage, status reads it
  // as true and does not fail.
  repo.GitOk({"config", "gentle-ai.requireContext", "maybe"});
  CHECK(next({"status", "--lineage", unbound, "--role", "reviewer"}) == "export/approve_capped");
  repo.ExpectRefused(Verdict(unbound, "APPROVE"), "usage", 2);
  // A round bound with --context is never capped.
  repo.Write("c.txt", "three\n");
  const std::string bound =
      repo.ReviewOk({"start", "--untracked", "c.txt", "--context", kContextFile})["lineage"];
  CHECK(next({"status", "--lineage", bound, "--role", "reviewer"}) == "export/review_due");
  envelope = repo.ReviewOk({"export-context", "--lineage", bound});
  CHECK(envelope["next_reason"] == "context_exported");
  repo.GitOk({"config", "gentle-ai.requireContext", "false"});
  CHECK(next({"status", "--lineage", unbound, "--role", "reviewer"}) == "export/review_due");
  CHECK(next({"status", "--lineage", marked}) == "revise/candidate_changed");
}

}  // namespace gentle::testing

namespace gentle::testing {
namespace {

// The tombstone files of the store, sorted.
std::vector<std::string> Tombstones(const LifecycleRepo& repo) {
  std::vector<std::string> names;
  const std::string dir =
      repo.common_dir() + "/gentle-ai/review-transactions/terminal-consumption/v1";
  if (!std::filesystem::exists(dir)) return names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// A bound round's burn spends its trees without the comment ids too (a second tombstone), all or
// nothing: killed before the record is removed, neither tombstone stays and the burn is retried;
// killed after, both stand and a writer finishes it.
TEST_CASE("a bound round's burn also spends its trees without the ids - killed it recovers") {
  for (const char* point : {"", "burn:index-prepared", "burn:tombstone-written",
                            "burn:record-removed", "burn:lineage-removed"}) {
    INFO(point);
    LifecycleRepo repo;
    repo.Write("a.txt", "changed\n");
    const Json started = repo.ReviewOk({"start", "--context", kContextFile});
    const std::string lineage = started["lineage"];
    const Json approved = repo.ReviewOk(Verdict(lineage, "APPROVE"));
    const std::vector<std::string> burn = {"burn",
                                           "--lineage",
                                           lineage,
                                           "--token",
                                           approved["token"],
                                           "--expected-revision",
                                           approved["revision"]};
    const bool killed = std::string(point) != "";
    RunResult run = repo.Review(burn, {{"GENTLE_FAULT_POINT", point}});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == (killed ? 86 : 0));
    const bool undone = std::string(point) == "burn:index-prepared" ||
                        std::string(point) == "burn:tombstone-written";
    if (undone) {
      RunResult again = repo.Review(burn);
      INFO(again.out << again.err);
      REQUIRE(again.exit_code == 0);
    } else if (killed) {
      repo.ReviewOk({"index", "rebuild"});  // a writer finishes the burn
    }
    CHECK(Tombstones(repo).size() == 2);
    ExpectFsckClean(repo);
    // The same trees without the context, and with another one, are spent: the bound round's
    // lineage held the PR, so its next is none / merged until the candidate moves.
    const Json status = repo.ReviewOk({"status"});
    CHECK(status["next"] == "none");
    CHECK(status["next_reason"] == "merged");
    repo.ExpectRefused({"start"}, "consumed", 4);
    CHECK(repo.ReviewOk({"index", "rebuild"})["tombstones"] == 2);
    ExpectFsckClean(repo);
  }
}

}  // namespace
}  // namespace gentle::testing
