// review ledger (docs/loop.md, ledger recovery in docs/context.md): the
// markers of earlier rounds read back from a ReviewContext's ledger carriers with
// export/posted_comment's parser; own vs foreign by the login, round-first selection, a foreign
// comment with our marker staying foreign, and the fail-closed refusal when the login is unknown
// and a root carrier holds a critical marker. The expected ledgers of the fixtures were written by
// hand.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/git_env.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

const std::string kGithub = std::string(GENTLE_FIXTURES_DIR) + "/forge/github/";
const std::string kAone = std::string(GENTLE_FIXTURES_DIR) + "/forge/aone/";
const std::string kLineage = "review-8287d80a55c775b1";

RunResult Review(const std::vector<std::string>& args, const std::string& stdin_data = "") {
  std::vector<std::string> argv = {GENTLE_AI_BIN, "review"};
  argv.insert(argv.end(), args.begin(), args.end());
  return Run(argv, "", GitEnv(), stdin_data);
}

RunResult Ledger(const std::string& context, const std::string& me, bool json = false) {
  std::vector<std::string> args = {"ledger", "--context", context, "--me", me};
  if (json) args.push_back("--json");
  return Review(args);
}

std::string Revision(char digit) { return "sha256:" + std::string(64, digit); }

// The comment `review comment` renders, without its final newline (forges trim it).
std::string Posted(const std::string& verdict, int round, char revision_digit) {
  return "## Code Review Summary\n\nbody\n\n### Verdict: " + verdict +
         "\n\n<!-- gentle-ai:review lineage=" + kLineage + " round=" + std::to_string(round) +
         " revision=" + Revision(revision_digit) + " -->";
}

// An Aone context built by `review context import` from thread comments given as JSON objects.
std::string AoneContext(const TempDir& dir, const nlohmann::json& comments) {
  const std::string view = dir.path() + "/view.json";
  WriteFile(view, R"({"title":"t","state":"opened","targetBranch":"m","sourceBranch":"s"})");
  const std::string list = dir.path() + "/comments.json";
  WriteFile(list, comments.dump());
  const std::string out = dir.path() + "/context.json";
  RunResult run = Review({"context", "import", "--forge", "aone", "--mr-view", view, "--comments",
                          list, "--output", out});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  return out;
}

nlohmann::json Note(int id, const std::string& account, const std::string& body,
                    const std::string& created_at) {
  return {
      {"id", id}, {"author", {{"account", account}}}, {"body", body}, {"createdAt", created_at}};
}

TEST_CASE("ledger github - own rounds and the foreign marker match the hand-written ledger") {
  RunResult run = Ledger(kGithub + "expected-context.json", "review-bot");
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.out == ReadFile(kGithub + "expected-ledger-review-bot.json"));
}

TEST_CASE("ledger aone - a thread summary is the carrier") {
  RunResult run = Ledger(kAone + "expected-context.json", "review-bot");
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.out == ReadFile(kAone + "expected-ledger-review-bot.json"));
}

TEST_CASE("ledger - a marker is attribution only - a foreign comment with our marker is foreign") {
  // mallory's comment carries round 3 of our lineage: for review-bot it is foreign (above); for
  // mallory it is her own, and review-bot's are foreign.
  RunResult run = Ledger(kGithub + "expected-context.json", "mallory");
  REQUIRE(run.exit_code == 0);
  const nlohmann::json ledger = run.Json();
  CHECK(ledger["previous"]["comment_id"] == "2006");
  CHECK(ledger["own"].size() == 1);
  CHECK(ledger["foreign"].size() == 2);
  // Nobody's login: nothing is own, no previous round.
  RunResult stranger = Ledger(kGithub + "expected-context.json", "octocat");
  REQUIRE(stranger.exit_code == 0);
  CHECK(stranger.Json()["previous"].is_null());
  CHECK(stranger.Json()["own"] == nlohmann::json::array());
  CHECK(stranger.Json()["foreign"].size() == 3);
}

TEST_CASE("ledger - unknown login with a critical root marker fails closed with no ledger") {
  RunResult run = Ledger(kGithub + "expected-context.json", "", true);
  CHECK(run.exit_code == 7);
  const nlohmann::json error = run.Json();
  CHECK(error["schema"] == "gentle-ai.review-error/v1");
  CHECK(error["error"]["code"] == "ambiguous");
  CHECK(error["error"]["message"] ==
        "the login is unknown (--me \"\") and root comment 2002 carries a REQUEST_CHANGES marker: "
        "own and foreign rounds cannot be told apart, so no ledger");
  CHECK(error["error"]["details"]["comment_id"] == "2002");
  RunResult text = Ledger(kGithub + "expected-context.json", "");
  CHECK(text.exit_code == 7);
  CHECK(text.out.empty());
  // Aone: the critical marker is a NEEDS_DISCUSSION summary.
  RunResult aone = Ledger(kAone + "expected-context.json", "", true);
  CHECK(aone.exit_code == 7);
  CHECK(aone.Json()["error"]["details"]["comment_id"] == "502");
}

TEST_CASE("ledger - unknown login with only approving roots and a critical reply answers") {
  TempDir dir;
  nlohmann::json reply = Note(2, "bot", Posted("REQUEST_CHANGES", 2, '2'), "2026-01-02T00:00:00Z");
  reply["parentNoteId"] = 1;
  const std::string context = AoneContext(
      dir, nlohmann::json::array(
               {Note(1, "bot", Posted("APPROVE", 1, '1'), "2026-01-01T00:00:00Z"), reply}));
  RunResult run = Ledger(context, "");
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const nlohmann::json ledger = run.Json();
  CHECK(ledger["me"].is_null());
  CHECK(ledger["previous"].is_null());
  REQUIRE(ledger["foreign"].size() == 2);
  CHECK(ledger["foreign"][1]["root"] == false);
  CHECK(ledger["foreign"][1]["verdict"] == "REQUEST_CHANGES");
}

TEST_CASE("ledger - a root marker without a verdict line is critical when the login is unknown") {
  TempDir dir;
  const std::string context = AoneContext(
      dir, nlohmann::json::array({Note(1, "bot",
                                       "hello\n<!-- gentle-ai:review lineage=" + kLineage +
                                           " round=1 revision=" + Revision('1') + " -->",
                                       "2026-01-01T00:00:00Z")}));
  RunResult unknown = Ledger(context, "", true);
  CHECK(unknown.exit_code == 7);
  CHECK(unknown.Json()["error"]["message"] ==
        "the login is unknown (--me \"\") and root comment 1 carries a verdict-less marker: own "
        "and foreign rounds cannot be told apart, so no ledger");
  RunResult known = Ledger(context, "bot");
  REQUIRE(known.exit_code == 0);
  CHECK(known.Json()["previous"]["verdict"].is_null());
  CHECK(known.Json()["previous"]["strict"] == false);
}

TEST_CASE("ledger - round first then the later time then the larger id") {
  TempDir dir;
  // Round 2 was posted first; round 1 re-posted later; another round 2 at the same time as the
  // first with a larger id.
  const std::string context = AoneContext(
      dir, nlohmann::json::array({
               Note(10, "bot", Posted("REQUEST_CHANGES", 2, '2'), "2026-01-01T08:00:00+08:00"),
               Note(11, "bot", Posted("REQUEST_CHANGES", 1, '1'), "2026-01-03T00:00:00Z"),
               Note(12, "bot", Posted("APPROVE", 2, '3'), "2026-01-01T00:00:00Z"),
               Note(9, "bot", Posted("APPROVE", 2, '4'), "2026-01-01T00:00:00Z"),
           }));
  RunResult run = Ledger(context, "bot");
  REQUIRE(run.exit_code == 0);
  const nlohmann::json ledger = run.Json();
  // 10 and 12 and 9 are all round 2 at one instant (08:00+08:00 is 00:00Z): the largest id.
  CHECK(ledger["previous"]["comment_id"] == "12");
  CHECK(ledger["previous"]["round"] == 2);
  CHECK(ledger["previous"]["revision"] == Revision('3'));
  REQUIRE(ledger["own"].size() == 4);
  // Listed in the context's order: time, then id.
  CHECK(ledger["own"][0]["comment_id"] == "9");
  CHECK(ledger["own"][1]["comment_id"] == "10");
  CHECK(ledger["own"][2]["comment_id"] == "12");
  CHECK(ledger["own"][3]["comment_id"] == "11");
  // A later time wins within a round.
  TempDir dir2;
  const std::string later =
      AoneContext(dir2, nlohmann::json::array({
                            Note(20, "bot", Posted("APPROVE", 3, '5'), "2026-01-02T00:00:00Z"),
                            Note(21, "bot", Posted("APPROVE", 3, '6'), "2026-01-01T00:00:00Z"),
                        }));
  RunResult run2 = Ledger(later, "bot");
  REQUIRE(run2.exit_code == 0);
  CHECK(run2.Json()["previous"]["comment_id"] == "20");
}

TEST_CASE("ledger - an unreadable marker is listed - never used - CRLF bodies are read") {
  TempDir dir;
  std::string crlf = Posted("APPROVE", 4, '7');
  for (size_t at = crlf.find('\n'); at != std::string::npos; at = crlf.find('\n', at + 2)) {
    crlf.replace(at, 1, "\r\n");
  }
  const std::string context = AoneContext(
      dir, nlohmann::json::array({
               Note(1, "bot", crlf + "\r\n", "2026-01-01T00:00:00Z"),
               Note(2, "bot", "text\n<!-- gentle-ai:review lineage=x round=9 -->",
                    "2026-01-02T00:00:00Z"),
               Note(3, "bot", "<!-- gentle-ai:review --> is what the bot writes\nthanks",
                    "2026-01-03T00:00:00Z"),
           }));
  RunResult run = Ledger(context, "bot");
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const nlohmann::json ledger = run.Json();
  CHECK(ledger["previous"]["comment_id"] == "1");
  CHECK(ledger["previous"]["round"] == 4);
  CHECK(ledger["previous"]["verdict"] == "APPROVE");
  CHECK(ledger["previous"]["strict"] == true);
  REQUIRE(ledger["unreadable"].size() == 1);
  CHECK(ledger["unreadable"][0]["comment_id"] == "2");
  CHECK(ledger["unreadable"][0]["reason"] ==
        "the marker must start lineage=<id> round=<n> revision=<rev>, separated by one space");
  // Unknown login: an unreadable root marker cannot be told apart either.
  RunResult unknown = Ledger(context, "", true);
  CHECK(unknown.exit_code == 7);
  CHECK(unknown.Json()["error"]["details"]["comment_id"] == "2");
}

TEST_CASE("ledger - the context must be the canonical import output") {
  TempDir dir;
  const std::string reformatted = dir.path() + "/pretty.json";
  WriteFile(reformatted,
            nlohmann::json::parse(ReadFile(kGithub + "expected-context.json")).dump(4) + "\n");
  RunResult run = Ledger(reformatted, "review-bot", true);
  CHECK(run.exit_code == 2);
  CHECK(run.Json()["error"]["message"] ==
        "review context (" + reformatted +
            "): the top level: not the canonical form `review context import` writes (members, "
            "order, sorting, indentation or the final newline differ)");
  // Canonical formatting, but two comments out of order.
  nlohmann::ordered_json swapped =
      nlohmann::ordered_json::parse(ReadFile(kGithub + "expected-context.json"));
  std::swap(swapped["comments"][0], swapped["comments"][1]);
  const std::string unsorted = dir.path() + "/unsorted.json";
  WriteFile(unsorted, swapped.dump(2, ' ', false) + "\n");
  RunResult order = Ledger(unsorted, "review-bot", true);
  CHECK(order.exit_code == 2);
  CHECK(order.Json()["error"]["details"]["json_path"] == "the top level");
  // And the same file in order again is accepted: only the order was wrong.
  std::swap(swapped["comments"][0], swapped["comments"][1]);
  WriteFile(unsorted, swapped.dump(2, ' ', false) + "\n");
  CHECK(Ledger(unsorted, "review-bot").exit_code == 0);
  const std::string other = dir.path() + "/other.json";
  WriteFile(other, R"({"schema":"gentle-ai.review-context/v2"})");
  RunResult schema = Ledger(other, "review-bot", true);
  CHECK(schema.exit_code == 2);
  CHECK(schema.Json()["error"]["message"] ==
        "review context (" + other + "): schema: expected \"gentle-ai.review-context/v1\"");
  RunResult no_me = Review({"ledger", "--context", other, "--json"});
  CHECK(no_me.exit_code == 2);
  // The context from stdin.
  RunResult piped = Review({"ledger", "--context", "-", "--me", "review-bot"},
                           ReadFile(kGithub + "expected-context.json"));
  CHECK(piped.exit_code == 0);
  CHECK(piped.out == ReadFile(kGithub + "expected-ledger-review-bot.json"));
}

TEST_CASE("ledger - a number out of range in the context is usage naming its JSON path") {
  TempDir dir;
  const std::string context = dir.path() + "/context.json";
  WriteFile(context,
            R"({"schema":"gentle-ai.review-context/v1","comments":[{"id":"1","line":1e999}]})");
  RunResult run = Ledger(context, "review-bot", true);
  INFO(run.out << run.err);
  CHECK(run.exit_code == 2);
  CHECK(run.Json()["error"]["code"] == "usage");
  CHECK(run.Json()["error"]["message"] ==
        "review context (" + context + "): comments[0].line: a number out of range: 1e999");
  CHECK(run.Json()["error"]["details"]["json_path"] == "comments[0].line");
  RunResult text = Ledger(context, "review-bot");
  CHECK(text.exit_code == 2);
  CHECK(text.err == "gentle-ai: usage: review context (" + context +
                        "): comments[0].line: a number out of range: 1e999\n");
}

// A GitHub context built by `review context import` from the fixture's `gh pr view` and the given
// issue-comment and review pages.
std::string GithubContext(const TempDir& dir, const nlohmann::json& issue_comments,
                          const nlohmann::json& reviews) {
  const std::string comments = dir.path() + "/ic.json";
  WriteFile(comments, issue_comments.dump());
  const std::string review_page = dir.path() + "/rv.json";
  WriteFile(review_page, reviews.dump());
  const std::string out = dir.path() + "/github-context.json";
  RunResult run =
      Review({"context", "import", "--forge", "github", "--pr-view", kGithub + "pr-view.json",
              "--issue-comments", comments, "--reviews", review_page, "--output", out});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  return out;
}

nlohmann::json GithubItem(int id, const std::string& login, const std::string& body,
                          const std::string& time, bool review) {
  nlohmann::json item = {{"id", id}, {"user", {{"login", login}}}, {"body", body}};
  if (review) {
    item["state"] = "COMMENTED";
    item["submitted_at"] = time;
  } else {
    item["created_at"] = time;
  }
  return item;
}

TEST_CASE("ledger github - a round posted as an issue comment is recovered - ids keep their kind") {
  TempDir dir;
  // Review 2002 and issue comment 2002: one number, two id spaces. The round posted with
  // `gh pr comment` (an issue comment) is the newest own round.
  const std::string context = GithubContext(
      dir,
      nlohmann::json::array({
          GithubItem(2002, "review-bot", Posted("APPROVE", 2, '2'), "2026-11-22T08:00:00Z", false),
          GithubItem(2003, "mallory", Posted("APPROVE", 9, '9'), "2026-11-22T09:00:00Z", false),
          GithubItem(2004, "octocat", "Thanks!", "2026-11-22T10:00:00Z", false),
      }),
      nlohmann::json::array({
          GithubItem(2002, "review-bot", Posted("REQUEST_CHANGES", 1, '1'), "2026-11-20T08:00:00Z",
                     true),
      }));
  RunResult run = Ledger(context, "review-bot");
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const nlohmann::json ledger = run.Json();
  const std::string lineage = "\"lineage\":\"" + kLineage + "\"";
  CHECK(ledger["previous"] ==
        nlohmann::json::parse(
            "{\"comment_id\":\"2002\",\"id_kind\":\"comment\",\"author\":\"review-bot\","
            "\"at\":\"2026-11-22T08:00:00Z\",\"root\":true," +
            lineage + ",\"round\":2,\"revision\":\"" + Revision('2') +
            "\",\"model\":null,\"session\":null,\"verdict\":\"APPROVE\",\"strict\":true}"));
  REQUIRE(ledger["own"].size() == 2);
  CHECK(ledger["own"][0]["id_kind"] == "review");
  CHECK(ledger["own"][0]["round"] == 1);
  CHECK(ledger["own"][0]["verdict"] == "REQUEST_CHANGES");
  CHECK(ledger["own"][1]["id_kind"] == "comment");
  REQUIRE(ledger["foreign"].size() == 1);
  CHECK(ledger["foreign"][0]["comment_id"] == "2003");
  CHECK(ledger["foreign"][0]["id_kind"] == "comment");
  // The unknown login fails closed on an issue comment's critical marker too.
  const std::string critical = GithubContext(
      dir,
      nlohmann::json::array({GithubItem(7, "review-bot", Posted("REQUEST_CHANGES", 1, '1'),
                                        "2026-11-22T08:00:00Z", false)}),
      nlohmann::json::array());
  RunResult unknown = Ledger(critical, "", true);
  CHECK(unknown.exit_code == 7);
  CHECK(unknown.Json()["error"]["details"]["comment_id"] == "7");
}

TEST_CASE("ledger - parse-comment and ledger read a CRLF comment as its LF copy") {
  const std::string lf = Posted("REQUEST_CHANGES", 4, '7') + "\n";
  const std::string crlf = WithCrlf(lf);
  RunResult parsed_lf = Review({"parse-comment", "-"}, lf);
  RunResult parsed_crlf = Review({"parse-comment", "-"}, crlf);
  INFO(parsed_crlf.err);
  REQUIRE(parsed_lf.exit_code == 0);
  CHECK(parsed_crlf.exit_code == 0);
  CHECK(parsed_crlf.out == parsed_lf.out);
  // A forge that also trims the final line end.
  CHECK(Review({"parse-comment", "-"}, crlf.substr(0, crlf.size() - 2)).out == parsed_lf.out);
  TempDir dir;
  const std::string context = AoneContext(dir, nlohmann::json::array({
                                                   Note(1, "bot", lf, "2026-01-01T00:00:00Z"),
                                                   Note(2, "bot", crlf, "2026-01-01T00:00:00Z"),
                                               }));
  RunResult run = Ledger(context, "bot");
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  nlohmann::json own = run.Json()["own"];
  REQUIRE(own.size() == 2);
  CHECK(own[1]["comment_id"] == "2");
  own[1]["comment_id"] = "1";
  CHECK(own[1] == own[0]);
  CHECK(own[0]["strict"] == true);
  CHECK(own[0]["verdict"] == "REQUEST_CHANGES");
  CHECK(own[0]["round"] == parsed_lf.Json()["round"]);
  CHECK(own[0]["revision"] == parsed_lf.Json()["revision"]);
}

}  // namespace
}  // namespace gentle::testing
