// review context import --forge gitea (docs/context.md, "Gitea"): the bodies of Gitea's REST API
// (pulls/N, issues/N/comments, pulls/N/reviews, pulls/N/reviews/ID/comments) normalized into the
// ReviewContext GitHub's pages give. The fixtures under fixtures/forge/gitea/ follow Gitea's API
// structs member for member (modules/structs: PullRequest, Comment, PullReview,
// PullReviewComment), and the expected context was written by hand from docs/context.md's table:
// the output must equal it byte for byte, in any page order. Then one case per mapping rule and
// per refusal, each with its exact code and message, and the ledger read back from the result.
#include <sys/types.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/git_env.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

const std::string kGitea = std::string(GENTLE_FIXTURES_DIR) + "/forge/gitea/";

RunResult Review(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {GENTLE_AI_BIN, "review"};
  argv.insert(argv.end(), args.begin(), args.end());
  return Run(argv, "", GitEnv());
}

RunResult Import(std::vector<std::string> flags) {
  flags.insert(flags.begin(), {"context", "import", "--forge", "gitea"});
  return Review(flags);
}

std::vector<std::string> FixtureFlags(bool reversed) {
  std::vector<std::string> flags = {"--pr-view", kGitea + "pull.json"};
  const std::vector<std::pair<std::string, std::string>> pages = {
      {"--reviews", "reviews-1.json"},
      {"--issue-comments", "issue-comments-1.json"},
      {"--review-comments", "review-301-comments.json"},
      {"--review-comments", "review-302-comments.json"},
      {"--review-comments", "review-303-comments.json"}};
  for (size_t i = 0; i < pages.size(); ++i) {
    const auto& [flag, file] = pages[reversed ? pages.size() - 1 - i : i];
    flags.push_back(flag);
    flags.push_back(kGitea + file);
  }
  return flags;
}

std::string File(const TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.path() + "/" + name;
  WriteFile(path, text);
  return path;
}

void ExpectUsage(const RunResult& run, const std::string& message, const std::string& json_path) {
  INFO("stdout: " << run.out << "\nstderr: " << run.err);
  CHECK(run.exit_code == 2);
  CHECK(run.Json()["error"]["code"] == "usage");
  CHECK(run.Json()["error"]["message"] == message);
  if (!json_path.empty()) CHECK(run.Json()["error"]["details"]["json_path"] == json_path);
}

// A Gitea pull request body with `extra` members spliced in (they replace earlier ones).
std::string Pull(const std::string& extra = "") {
  nlohmann::json pull = nlohmann::json::parse(
      R"({"number":7,"title":"t","body":"","user":{"login":"olga"},"state":"open",)"
      R"("merged":false,"base":{"ref":"main","sha":"b"},"head":{"ref":"topic","sha":"h"}})");
  if (!extra.empty()) pull.update(nlohmann::json::parse(extra));
  return pull.dump();
}

// The import of Pull(extra) plus one page per (flag, JSON) pair; exits 0.
nlohmann::json ImportOk(const TempDir& dir, const std::string& extra,
                        const std::vector<std::string>& flag_and_json) {
  std::vector<std::string> flags = {"--pr-view", File(dir, "pull.json", Pull(extra))};
  for (size_t i = 0; i + 1 < flag_and_json.size(); i += 2) {
    flags.push_back(flag_and_json[i]);
    flags.push_back(File(dir, "page" + std::to_string(i) + ".json", flag_and_json[i + 1]));
  }
  RunResult run = Import(flags);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  return run.Json();
}

TEST_CASE("context import gitea - the fixture bodies give the hand-written context") {
  const std::string expected = ReadFile(kGitea + "expected-context.json");
  REQUIRE(!expected.empty());
  RunResult run = Import(FixtureFlags(false));
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.out == expected);
  CHECK(run.err.empty());
  RunResult reversed = Import(FixtureFlags(true));
  CHECK(reversed.exit_code == 0);
  CHECK(reversed.out == expected);
}

TEST_CASE("context import gitea - the context reads back and its ledger finds the own round") {
  TempDir dir;
  std::vector<std::string> flags = FixtureFlags(false);
  const std::string context = dir.path() + "/context.json";
  flags.insert(flags.end(), {"--output", context});
  REQUIRE(Import(flags).exit_code == 0);
  RunResult ledger = Review({"ledger", "--context", context, "--me", "review-bot"});
  INFO(ledger.out << ledger.err);
  REQUIRE(ledger.exit_code == 0);
  const nlohmann::json j = ledger.Json();
  CHECK(j["forge"] == "gitea");
  // Review 302's body: a review id, as on GitHub (Gitea numbers reviews and comments apart).
  CHECK(j["previous"]["comment_id"] == "302");
  CHECK(j["previous"]["id_kind"] == "review");
  CHECK(j["previous"]["round"] == 1);
  CHECK(j["previous"]["verdict"] == "REQUEST_CHANGES");
  CHECK(j["own"].size() == 1);
  CHECK(j["foreign"].empty());
}

TEST_CASE("context import gitea - merged is the state merged and stats are optional") {
  TempDir dir;
  nlohmann::json merged = ImportOk(dir, R"({"state":"closed","merged":true})", {});
  CHECK(merged["state"] == "merged");
  CHECK(!merged.contains("additions"));
  CHECK(!merged.contains("changedFiles"));
  nlohmann::json closed =
      ImportOk(dir, R"({"state":"closed","additions":0,"changed_files":1})", {});
  CHECK(closed["state"] == "closed");
  CHECK(closed["additions"] == 0);
  CHECK(closed["changedFiles"] == 1);
  nlohmann::json ghost = ImportOk(dir, R"({"user":null})", {});
  CHECK(ghost["authorLogin"] == "");
}

TEST_CASE("context import gitea - review states in GitHub's words and skipped entries") {
  TempDir dir;
  const std::string reviews =
      R"([{"id":1,"state":"APPROVED","body":"","user":{"login":"a"},"commit_id":"c"},)"
      R"({"id":2,"state":"REQUEST_CHANGES","body":"","user":{"login":"a"},"commit_id":""},)"
      R"({"id":3,"state":"COMMENT","body":"","user":null},)"
      R"({"id":4,"state":"APPROVED","body":"","user":null,"dismissed":true},)"
      R"({"id":5,"state":"PENDING","body":"draft","user":null},)"
      R"({"id":6,"state":"REQUEST_REVIEW","body":"","user":{"login":"c"}}])";
  const std::string inline_page =
      R"([{"id":10,"pull_request_review_id":5,"body":"d","user":null,"path":"p",)"
      R"("created_at":"2026-11-20T10:00:00Z","position":3,"original_position":0},)"
      R"({"id":11,"pull_request_review_id":3,"body":"e","user":null,"path":"p",)"
      R"("created_at":"2026-11-20T10:00:00Z","position":3,"original_position":0}])";
  nlohmann::json c = ImportOk(dir, "", {"--reviews", reviews, "--review-comments", inline_page});
  REQUIRE(c["verdicts"].size() == 4);
  CHECK(c["verdicts"][0]["state"] == "APPROVED");
  CHECK(c["verdicts"][0]["commitId"] == "c");
  CHECK(c["verdicts"][1]["state"] == "CHANGES_REQUESTED");
  CHECK(!c["verdicts"][1].contains("commitId"));  // Gitea's "" is no commit
  CHECK(c["verdicts"][2]["state"] == "COMMENTED");
  CHECK(c["verdicts"][3]["state"] == "DISMISSED");
  // The PENDING review's comment is skipped with it; the submitted one's stays.
  REQUIRE(c["comments"].size() == 1);
  CHECK(c["comments"][0]["id"] == "11");
  CHECK(c["ledgerCarriers"].empty());
}

TEST_CASE("context import gitea - position then original_position then no line") {
  TempDir dir;
  const std::string page =
      R"([{"id":1,"pull_request_review_id":9,"body":"a","user":null,"path":"f",)"
      R"("created_at":"2026-11-20T10:00:00Z","position":12,"original_position":4},)"
      R"({"id":2,"pull_request_review_id":9,"body":"b","user":null,"path":"f",)"
      R"("created_at":"2026-11-20T10:00:01Z","position":0,"original_position":4},)"
      R"({"id":3,"pull_request_review_id":9,"body":"c","user":null,"path":"f",)"
      R"("created_at":"2026-11-20T10:00:02Z","position":0,"original_position":0},)"
      R"({"id":4,"pull_request_review_id":9,"body":"d","user":null,"path":"f",)"
      R"("created_at":"2026-11-20T10:00:03Z"}])";
  nlohmann::json c = ImportOk(dir, "", {"--review-comments", page});
  REQUIRE(c["comments"].size() == 4);
  CHECK(c["comments"][0]["line"] == 12);
  CHECK(c["comments"][1]["line"] == 4);
  CHECK(!c["comments"][2].contains("line"));
  CHECK(!c["comments"][3].contains("line"));
  for (const auto& comment : c["comments"]) {
    CHECK(comment["channel"] == "inline");
    CHECK(!comment.contains("parentId"));
  }
}

TEST_CASE("context import gitea - bad shapes are usage naming input and JSON path") {
  TempDir dir;
  const std::string no_head = File(dir, "a.json",
                                   R"({"title":"t","body":"","state":"open",)"
                                   R"("base":{"ref":"m"}})");
  ExpectUsage(Import({"--pr-view", no_head, "--json"}),
              "pr-view (" + no_head + "): head: missing (expected an object)", "head");
  const std::string no_sha = File(dir, "b.json", Pull(R"({"head":{"ref":"topic"}})"));
  ExpectUsage(Import({"--pr-view", no_sha, "--json"}),
              "pr-view (" + no_sha + "): head.sha: missing (expected a string)", "head.sha");
  const std::string bad_merged = File(dir, "c.json", Pull(R"({"merged":"yes"})"));
  ExpectUsage(Import({"--pr-view", bad_merged, "--json"}),
              "pr-view (" + bad_merged + "): merged: expected true or false", "merged");
  const std::string pull = File(dir, "pull.json", Pull());
  const std::string unknown = File(dir, "d.json",
                                   R"([{"id":1,"state":"APPROVED","body":"","user":null},)"
                                   R"({"id":2,"state":"","body":"","user":null}])");
  ExpectUsage(Import({"--pr-view", pull, "--reviews", unknown, "--json"}),
              "reviews page 1 (" + unknown +
                  "): [1].state: expected APPROVED, REQUEST_CHANGES, COMMENT, PENDING or "
                  "REQUEST_REVIEW, got \"\"",
              "[1].state");
  const std::string negative =
      File(dir, "e.json",
           R"([{"id":1,"pull_request_review_id":9,"body":"a","user":null,"path":"f",)"
           R"("created_at":"2026-11-20T10:00:00Z","position":-1}])");
  ExpectUsage(Import({"--pr-view", pull, "--review-comments", negative, "--json"}),
              "review-comments page 1 (" + negative + "): [0].position: expected an integer >= 0",
              "[0].position");
  const std::string no_path = File(dir, "f.json",
                                   R"([{"id":1,"body":"a","user":null,)"
                                   R"("created_at":"2026-11-20T10:00:00Z"}])");
  ExpectUsage(Import({"--pr-view", pull, "--review-comments", no_path, "--json"}),
              "review-comments page 1 (" + no_path + "): [0].path: missing (expected a string)",
              "[0].path");
  const std::string bad_time = File(dir, "g.json",
                                    R"([{"id":1,"body":"x","user":null,)"
                                    R"("created_at":"2026-11-20 10:00:00"}])");
  ExpectUsage(Import({"--pr-view", pull, "--issue-comments", bad_time, "--json"}),
              "issue-comments page 1 (" + bad_time +
                  "): [0].created_at: expected an RFC 3339 timestamp, got \"2026-11-20 10:00:00\"",
              "[0].created_at");
}

TEST_CASE("context import gitea - malformed JSON is usage and oversize is budget_exceeded") {
  TempDir dir;
  const std::string broken = File(dir, "broken.json", R"({"title":"t","body":)");
  RunResult run = Import({"--pr-view", broken, "--json"});
  CHECK(run.exit_code == 2);
  CHECK(run.Json()["error"]["code"] == "usage");
  CHECK(run.Json()["error"]["details"]["json_path"] == "the top level");
  CHECK(run.Json()["error"]["message"].get<std::string>().rfind(
            "pr-view (" + broken + "): the top level: not JSON: ", 0) == 0);
  const std::string pull = File(dir, "pull.json", Pull());
  const std::string deep = File(dir, "deep.json", R"([{"id":1,"x":[1e999]}])");
  ExpectUsage(Import({"--pr-view", pull, "--reviews", deep, "--json"}),
              "reviews page 1 (" + deep + "): [0].x[0]: a number out of range: 1e999", "[0].x[0]");
  const std::string big = dir.path() + "/big.json";
  WriteFile(big, "");
  REQUIRE(truncate(big.c_str(), (off_t{64} << 20) + 1) == 0);  // sparse: nothing to read
  RunResult over = Import({"--pr-view", pull, "--review-comments", big, "--json"});
  CHECK(over.exit_code == 9);
  CHECK(over.Json()["error"]["code"] == "budget_exceeded");
}

TEST_CASE("context import gitea - one forge vocabulary in --forge and in the context") {
  TempDir dir;
  const std::string pull = File(dir, "pull.json", Pull());
  ExpectUsage(Import({"--pr-view", pull, "--mr-view", pull, "--json"}),
              "--mr-view does not apply to --forge gitea", "");
  ExpectUsage(Import({"--json"}), "--forge gitea needs --pr-view FILE", "");
  ExpectUsage(Review({"context", "import", "--forge", "Gitea", "--json"}),
              "--forge must be github, aone or gitea, got \"Gitea\"", "");
  // A context whose forge is none of the names is refused when read back.
  const std::string context = dir.path() + "/context.json";
  REQUIRE(Import({"--pr-view", pull, "--output", context}).exit_code == 0);
  std::string text = ReadFile(context);
  const std::string forge_line = "\"forge\": \"gitea\"";
  REQUIRE(text.find(forge_line) != std::string::npos);
  text.replace(text.find(forge_line), forge_line.size(), "\"forge\": \"gitlab\"");
  const std::string edited = File(dir, "edited.json", text);
  ExpectUsage(Review({"ledger", "--context", edited, "--me", "x", "--json"}),
              "review context (" + edited + "): forge: expected github, aone or gitea", "forge");
}

}  // namespace
}  // namespace gentle::testing
