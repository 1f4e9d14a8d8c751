// review context import (docs/loop.md, docs/context.md): GitHub's and
// Aone's CLI output normalized into one ReviewContext. The fixtures under fixtures/forge/ were
// written by hand from the REST documentation and docs/context.md, and so were the expected
// contexts: the output must equal them byte for byte, whatever the order of the pages. Then one
// case per mapping rule and per refusal, each with its exact code and message.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_env.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

const std::string kGithub = std::string(GENTLE_FIXTURES_DIR) + "/forge/github/";
const std::string kAone = std::string(GENTLE_FIXTURES_DIR) + "/forge/aone/";

RunResult Import(const std::vector<std::string>& flags, const std::string& stdin_data = "") {
  std::vector<std::string> args = {GENTLE_AI_BIN, "review", "context", "import"};
  args.insert(args.end(), flags.begin(), flags.end());
  return Run(args, "", GitEnv(), stdin_data);
}

std::vector<std::string> GithubFlags(bool reversed) {
  std::vector<std::string> flags = {"--forge", "github", "--pr-view", kGithub + "pr-view.json"};
  const std::vector<std::pair<std::string, std::string>> pages = {
      {"--reviews", "reviews-1.json"},
      {"--reviews", "reviews-2.json"},
      {"--issue-comments", "issue-comments-1.json"},
      {"--issue-comments", "issue-comments-2.json"},
      {"--review-comments", "review-comments-1.json"},
      {"--review-comments", "review-comments-2.json"}};
  for (size_t i = 0; i < pages.size(); ++i) {
    const auto& [flag, file] = pages[reversed ? pages.size() - 1 - i : i];
    flags.push_back(flag);
    flags.push_back(kGithub + file);
  }
  return flags;
}

// A file holding `text` in `dir`.
std::string File(const TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.path() + "/" + name;
  WriteFile(path, text);
  return path;
}

void ExpectUsage(const RunResult& run, const std::string& message) {
  INFO("stdout: " << run.out << "\nstderr: " << run.err);
  CHECK(run.exit_code == 2);
  CHECK(run.Json()["error"]["code"] == "usage");
  CHECK(run.Json()["error"]["message"] == message);
}

constexpr const char* kPrView =
    R"({"title":"t","body":"b","author":{"login":"o"},"state":"OPEN","baseRefName":"main",)"
    R"("headRefName":"f","headRefOid":"abc"})";

// The import of kPrView plus one page of each given flag, parsed.
nlohmann::json GithubWith(const TempDir& dir, const std::vector<std::string>& flag_and_json) {
  std::vector<std::string> flags = {"--forge", "github", "--pr-view",
                                    File(dir, "view.json", kPrView)};
  for (size_t i = 0; i + 1 < flag_and_json.size(); i += 2) {
    flags.push_back(flag_and_json[i]);
    flags.push_back(File(dir, "page" + std::to_string(i) + ".json", flag_and_json[i + 1]));
  }
  RunResult run = Import(flags);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  return run.Json();
}

TEST_CASE("context import github - the fixture pages give the hand-written context") {
  const std::string expected = ReadFile(kGithub + "expected-context.json");
  REQUIRE(!expected.empty());
  RunResult run = Import(GithubFlags(false));
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.out == expected);
  CHECK(run.err.empty());
}

TEST_CASE("context import github - page order does not change a byte") {
  RunResult forward = Import(GithubFlags(false));
  RunResult reversed = Import(GithubFlags(true));
  CHECK(forward.exit_code == 0);
  CHECK(reversed.exit_code == 0);
  CHECK(reversed.out == forward.out);
}

TEST_CASE("context import --output writes the same bytes and prints nothing") {
  TempDir dir;
  std::vector<std::string> flags = GithubFlags(false);
  flags.push_back("--output");
  flags.push_back(dir.path() + "/context.json");
  RunResult run = Import(flags);
  CHECK(run.exit_code == 0);
  CHECK(run.out.empty());
  CHECK(ReadFile(dir.path() + "/context.json") == ReadFile(kGithub + "expected-context.json"));
}

TEST_CASE("context import aone - default and resolved lists give the hand-written context") {
  const std::string expected = ReadFile(kAone + "expected-context.json");
  REQUIRE(!expected.empty());
  RunResult run =
      Import({"--forge", "aone", "--mr-view", kAone + "mr-view.json", "--comments",
              kAone + "comments.json", "--resolved-comments", kAone + "resolved-comments.json"});
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.out == expected);
  // The lists swapped: the union is the same.
  RunResult swapped =
      Import({"--forge", "aone", "--mr-view", kAone + "mr-view.json", "--comments",
              kAone + "resolved-comments.json", "--resolved-comments", kAone + "comments.json"});
  CHECK(swapped.exit_code == 0);
  CHECK(swapped.out == expected);
}

TEST_CASE("context import reads one input from stdin") {
  RunResult run =
      Import({"--forge", "aone", "--mr-view", "-", "--comments", kAone + "comments.json",
              "--resolved-comments", kAone + "resolved-comments.json"},
             ReadFile(kAone + "mr-view.json"));
  CHECK(run.exit_code == 0);
  CHECK(run.out == ReadFile(kAone + "expected-context.json"));
}

TEST_CASE("context import github - stats absent from gh are absent - never zero") {
  TempDir dir;
  const nlohmann::json context = GithubWith(dir, {});
  CHECK(!context.contains("additions"));
  CHECK(!context.contains("deletions"));
  CHECK(!context.contains("changedFiles"));
  CHECK(context["comments"] == nlohmann::json::array());
  CHECK(context["verdicts"] == nlohmann::json::array());
  CHECK(context["ledgerCarriers"] == nlohmann::json::array());
  CHECK(context["authorLogin"] == "o");
}

TEST_CASE("context import github - an inline line falls back to original_line then is absent") {
  TempDir dir;
  const nlohmann::json context = GithubWith(
      dir, {"--review-comments",
            R"([{"id":1,"path":"a","line":5,"original_line":3,"body":"x","user":null,)"
            R"("created_at":"2026-01-01T00:00:00Z"},)"
            R"({"id":2,"path":"a","line":null,"original_line":3,"body":"x","user":null,)"
            R"("created_at":"2026-01-01T00:00:01Z","in_reply_to_id":1},)"
            R"({"id":3,"path":"b","body":"x","user":null,"created_at":"2026-01-01T00:00:02Z"}])"});
  const auto& comments = context["comments"];
  REQUIRE(comments.size() == 3);
  CHECK(comments[0]["line"] == 5);
  CHECK(comments[1]["line"] == 3);
  CHECK(comments[1]["parentId"] == "1");
  CHECK(!comments[2].contains("line"));
  CHECK(comments[2]["path"] == "b");
  CHECK(comments[2]["author"] == "");
  CHECK(comments[0]["channel"] == "inline");
}

TEST_CASE("context import github - a PENDING review and its comments are skipped") {
  TempDir dir;
  const nlohmann::json context =
      GithubWith(dir, {"--reviews",
                       R"([{"id":7,"state":"PENDING","body":"draft","user":{"login":"a"}},)"
                       R"({"id":8,"state":"APPROVED","body":"","user":{"login":"a"},)"
                       R"("submitted_at":"2026-01-01T00:00:00Z"}])",
                       "--review-comments",
                       R"([{"id":1,"pull_request_review_id":7,"path":"a","body":"x","user":null,)"
                       R"("created_at":"2026-01-01T00:00:00Z"},)"
                       R"({"id":2,"pull_request_review_id":8,"path":"a","body":"y","user":null,)"
                       R"("created_at":"2026-01-01T00:00:00Z"}])"});
  REQUIRE(context["verdicts"].size() == 1);
  CHECK(context["verdicts"][0]["id"] == "8");
  CHECK(!context["verdicts"][0].contains("commitId"));
  // An empty review body is a verdict, not a ledger carrier.
  CHECK(context["ledgerCarriers"] == nlohmann::json::array());
  REQUIRE(context["comments"].size() == 1);
  CHECK(context["comments"][0]["id"] == "2");
}

TEST_CASE("context import github - a wrong type is usage naming page and JSON path") {
  TempDir dir;
  const std::string view = File(dir, "view.json", kPrView);
  const std::string page1 = File(dir, "r1.json", "[]");
  const std::string page2 = File(dir, "r2.json",
                                 R"([{"id":1,"state":"COMMENTED","body":"","user":null},)"
                                 R"({"id":2,"state":"COMMENTED","body":"","user":null},)"
                                 R"({"id":3,"state":"COMMENTED","body":"","user":null},)"
                                 R"({"id":4,"state":"COMMENTED","body":"","user":{"login":4}}])");
  RunResult run = Import(
      {"--forge", "github", "--pr-view", view, "--reviews", page1, "--reviews", page2, "--json"});
  ExpectUsage(run, "reviews page 2 (" + page2 + "): [3].user.login: expected a string");
  CHECK(run.Json()["error"]["details"]["json_path"] == "[3].user.login");
  CHECK(run.Json()["error"]["details"]["file"] == page2);
}

TEST_CASE("context import github - missing required members are usage") {
  TempDir dir;
  const std::string view = File(dir, "view.json", R"({"body":"b","state":"OPEN"})");
  ExpectUsage(Import({"--forge", "github", "--pr-view", view, "--json"}),
              "pr-view (" + view + "): title: missing (expected a string)");
  const std::string ok_view = File(dir, "ok.json", kPrView);
  const std::string no_login = File(dir, "c.json", R"([{"id":1,"body":"x","user":{}}])");
  ExpectUsage(
      Import({"--forge", "github", "--pr-view", ok_view, "--issue-comments", no_login, "--json"}),
      "issue-comments page 1 (" + no_login +
          "): [0].user.login: missing (expected a "
          "string)");
  const std::string bad_id = File(dir, "d.json", R"([{"id":"1","body":"x","user":null}])");
  ExpectUsage(
      Import({"--forge", "github", "--pr-view", ok_view, "--issue-comments", bad_id, "--json"}),
      "issue-comments page 1 (" + bad_id + "): [0].id: expected an integer id >= 1");
  const std::string not_array = File(dir, "e.json", R"({"id":1})");
  ExpectUsage(Import({"--forge", "github", "--pr-view", ok_view, "--reviews", not_array, "--json"}),
              "reviews page 1 (" + not_array + "): the top level: expected an array");
  const std::string bad_time =
      File(dir, "f.json", R"([{"id":1,"body":"x","user":null,"created_at":"yesterday"}])");
  ExpectUsage(
      Import({"--forge", "github", "--pr-view", ok_view, "--issue-comments", bad_time, "--json"}),
      "issue-comments page 1 (" + bad_time +
          "): [0].created_at: expected an RFC 3339 timestamp, got \"yesterday\"");
  const std::string negative = File(dir, "g.json",
                                    R"({"title":"t","body":"b","author":null,"state":"OPEN",)"
                                    R"("baseRefName":"m","headRefName":"f","headRefOid":"a",)"
                                    R"("additions":-1})");
  ExpectUsage(Import({"--forge", "github", "--pr-view", negative, "--json"}),
              "pr-view (" + negative + "): additions: expected an integer >= 0");
}

TEST_CASE("context import - invalid JSON and invalid UTF-8 are usage") {
  TempDir dir;
  const std::string broken = File(dir, "broken.json", "[{\"id\":1,");
  RunResult run = Import({"--forge", "github", "--pr-view", broken, "--json"});
  CHECK(run.exit_code == 2);
  CHECK(run.Json()["error"]["code"] == "usage");
  CHECK(run.Json()["error"]["message"].get<std::string>().rfind(
            "pr-view (" + broken + "): the top level: not JSON: ", 0) == 0);
  const std::string latin1 = File(dir, "latin1.json", "{\"title\":\"caf\xe9\"}");
  ExpectUsage(Import({"--forge", "github", "--pr-view", latin1, "--json"}),
              "pr-view (" + latin1 + "): the top level: not valid UTF-8");
}

TEST_CASE("context import - a number out of range is usage naming its JSON path") {
  TempDir dir;
  const std::string view = File(dir, "view.json",
                                R"({"title":"t","body":"b","author":null,"state":"OPEN",)"
                                R"("baseRefName":"m","headRefName":"f","headRefOid":"a",)"
                                R"("additions":1e999})");
  RunResult run = Import({"--forge", "github", "--pr-view", view, "--json"});
  ExpectUsage(run, "pr-view (" + view + "): additions: a number out of range: 1e999");
  CHECK(run.Json()["error"]["details"]["json_path"] == "additions");
  RunResult text = Import({"--forge", "github", "--pr-view", view});
  CHECK(text.exit_code == 2);
  CHECK(text.out.empty());
  CHECK(text.err ==
        "gentle-ai: usage: pr-view (" + view + "): additions: a number out of range: 1e999\n");
  // Inside arrays, in a page, negative, in a member nobody reads: the element that holds it.
  const std::string page =
      File(dir, "c.json", R"([{"id":1,"body":"x","user":null},{"id":2,"x":[0,[1,-1e999]]}])");
  RunResult nested = Import({"--forge", "github", "--pr-view", File(dir, "ok.json", kPrView),
                             "--issue-comments", page, "--json"});
  ExpectUsage(nested,
              "issue-comments page 1 (" + page + "): [1].x[1][1]: a number out of range: -1e999");
  CHECK(nested.Json()["error"]["details"]["json_path"] == "[1].x[1][1]");
  // At the top level.
  const std::string top = File(dir, "top.json", "1E400");
  ExpectUsage(Import({"--forge", "github", "--pr-view", top, "--json"}),
              "pr-view (" + top + "): the top level: a number out of range: 1E400");
}

TEST_CASE("context import - a file over 64 MiB is budget_exceeded before it is read") {
  TempDir dir;
  const std::string big = dir.path() + "/big.json";
  WriteFile(big, "");
  REQUIRE(truncate(big.c_str(), (off_t{64} << 20) + 1) == 0);  // sparse: nothing to read
  RunResult run = Import({"--forge", "github", "--pr-view", big, "--json"});
  CHECK(run.exit_code == 9);
  CHECK(run.Json()["error"]["code"] == "budget_exceeded");
  CHECK(run.Json()["error"]["message"] ==
        "pr-view (" + big + "): larger than 67108864 bytes (64 MiB), refused unread");
  // Exactly 64 MiB is read (and is not JSON here).
  REQUIRE(truncate(big.c_str(), off_t{64} << 20) == 0);
  RunResult limit = Import({"--forge", "github", "--pr-view", big, "--json"});
  CHECK(limit.exit_code == 2);
}

TEST_CASE("context import - stdin may be named once - flags of the other forge are usage") {
  TempDir dir;
  ExpectUsage(Import({"--forge", "github", "--pr-view", "-", "--reviews", "-", "--json"}, kPrView),
              "reviews page 1: stdin (-) may be named only once");
  const std::string view = File(dir, "view.json", kPrView);
  ExpectUsage(Import({"--forge", "github", "--pr-view", view, "--comments", view, "--json"}),
              "--comments does not apply to --forge github");
  ExpectUsage(Import({"--forge", "aone", "--mr-view", view, "--reviews", view, "--json"}),
              "--reviews does not apply to --forge aone");
  ExpectUsage(Import({"--forge", "gitlab", "--json"}),
              "--forge must be github, aone or gitea, got \"gitlab\"");
  ExpectUsage(Import({"--forge", "github", "--json"}), "--forge github needs --pr-view FILE");
  ExpectUsage(Import({"--forge", "aone", "--json"}), "--forge aone needs --mr-view FILE");
  RunResult missing = Import({"--forge", "github", "--pr-view", dir.path() + "/none", "--json"});
  CHECK(missing.exit_code == 2);
}

TEST_CASE("context import - one id with different contents on two pages is usage") {
  TempDir dir;
  const std::string view = File(dir, "view.json", kPrView);
  const std::string a = File(
      dir, "a.json", R"([{"id":5,"body":"x","user":null,"created_at":"2026-01-01T00:00:00Z"}])");
  const std::string b = File(
      dir, "b.json", R"([{"id":5,"body":"y","user":null,"created_at":"2026-01-01T00:00:00Z"}])");
  ExpectUsage(Import({"--forge", "github", "--pr-view", view, "--issue-comments", a,
                      "--issue-comments", b, "--json"}),
              "issue-comments page 2 (" + b +
                  "): [0]: id 5 was already read from issue-comments page 1 with different "
                  "contents (fetch the pages again)");
  // The same page twice (an overlap) is kept once.
  RunResult twice = Import(
      {"--forge", "github", "--pr-view", view, "--issue-comments", a, "--issue-comments", a});
  CHECK(twice.exit_code == 0);
  CHECK(twice.Json()["comments"].size() == 1);
  // An issue comment and a review comment with one id cannot both be kept.
  const std::string inline_page =
      File(dir, "c.json",
           R"([{"id":5,"path":"p","body":"x","user":null,"created_at":"2026-01-01T00:00:00Z"}])");
  RunResult clash = Import({"--forge", "github", "--pr-view", view, "--issue-comments", a,
                            "--review-comments", inline_page, "--json"});
  CHECK(clash.exit_code == 2);
}

TEST_CASE("context import aone - author account then username - draft and path rules") {
  TempDir dir;
  const std::string view =
      File(dir, "view.json",
           R"({"title":"t","state":"opened","targetBranch":"master","sourceBranch":"abc",)"
           R"("author":{"username":"u","account":"acc"},"additions":3})");
  const std::string comments = File(
      dir, "c.json",
      R"([{"id":1,"body":"a","author":{"username":"only-user"},"path":""},)"
      R"({"id":2,"body":"b","author":{"account":"acct","username":"user"},"path":"x.c","line":2},)"
      R"({"id":3,"body":"c","author":"not-an-object-but-a-draft","isDraft":true},)"
      R"({"id":4,"body":"","author":null}])");
  RunResult run = Import({"--forge", "aone", "--mr-view", view, "--comments", comments, "--json"});
  ExpectUsage(run, "comments (" + comments + "): [2].author: expected an object");
  const std::string fixed = File(
      dir, "d.json",
      R"([{"id":1,"body":"a","author":{"username":"only-user"},"path":""},)"
      R"({"id":2,"body":"b","author":{"account":"acct","username":"user"},"path":"x.c","line":2},)"
      R"({"id":3,"body":"c","author":{"account":"z"},"isDraft":true},)"
      R"({"id":4,"body":"","author":null}])");
  RunResult ok = Import({"--forge", "aone", "--mr-view", view, "--comments", fixed});
  INFO(ok.err);
  REQUIRE(ok.exit_code == 0);
  const nlohmann::json context = ok.Json();
  CHECK(context["authorLogin"] == "acc");
  CHECK(context["body"] == "");
  CHECK(context["headRefName"] == "abc");
  CHECK(context["headRefOid"] == "abc");
  CHECK(!context.contains("additions"));  // Aone reports no stats: never taken from mr view
  const auto& c = context["comments"];
  REQUIRE(c.size() == 3);  // the draft is skipped
  CHECK(c[0]["author"] == "only-user");
  CHECK(c[0]["channel"] == "thread");  // an empty path is no path
  CHECK(!c[0].contains("path"));
  CHECK(c[1]["author"] == "acct");
  CHECK(c[1]["channel"] == "inline");
  CHECK(c[1]["line"] == 2);
  CHECK(c[2]["author"] == "");
  // Carriers: thread comments with a body; the empty one carries nothing.
  REQUIRE(context["ledgerCarriers"].size() == 1);
  CHECK(context["ledgerCarriers"][0] ==
        nlohmann::json::parse(R"({"id":"1","author":"only-user","body":"a",)"
                              R"("state":"COMMENTED","submittedAt":""})"));
  CHECK(context["verdicts"] == nlohmann::json::array());
}

TEST_CASE("context import - help names every flag") {
  RunResult help = Run({GENTLE_AI_BIN, "review", "context", "import", "--help"});
  CHECK(help.exit_code == 0);
  for (const char* flag :
       {"--forge", "--pr-view", "--issue-comments", "--reviews", "--review-comments", "--mr-view",
        "--comments", "--resolved-comments", "--output"}) {
    CHECK(help.out.find(flag) != std::string::npos);
  }
}

}  // namespace
}  // namespace gentle::testing
