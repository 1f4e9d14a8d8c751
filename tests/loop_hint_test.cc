// The PR loop's pure parsers (loop/hint.h, loop/pr_key.h, loop/comment_id.h,
// loop/context_ids.h): exact values for accepted input, `usage` for everything else.
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "loop/comment_id.h"
#include "loop/context_ids.h"
#include "loop/hint.h"
#include "loop/pr_key.h"

namespace gentle::testing {
namespace {

const std::string kHint =
    "[pr-daemon] github:acme/webapp#47 reason=comments skill=land updated=2026-08-19T15:42:03Z";

Code HintCode(const std::string& line) {
  auto hint = loop::ParseHint(line);
  return hint.ok() ? Code::kOk : hint.status().code();
}

TEST_CASE("hint: the reference line parses into its fields") {
  auto hint = loop::ParseHint(kHint);
  REQUIRE(hint.ok());
  CHECK(hint->pr.forge == store::Forge::kGithub);
  CHECK(hint->pr.owner == "acme");
  CHECK(hint->pr.repo == "webapp");
  CHECK(hint->pr.number == 47);
  CHECK(hint->reasons == std::vector<std::string>{"comments"});
  CHECK(hint->skill == "land");
  CHECK(hint->updated == "2026-08-19T15:42:03Z");
}

TEST_CASE("hint: every reason - in the line's order - with review-pr and each forge") {
  auto hint = loop::ParseHint(
      "[pr-daemon] aone:Team.X/my_repo-2#9 reason=state,ci,conflicts,comments skill=review-pr "
      "updated=2024-02-29T23:59:59Z");
  REQUIRE(hint.ok());
  CHECK(hint->reasons == std::vector<std::string>{"state", "ci", "conflicts", "comments"});
  CHECK(hint->skill == "review-pr");
  CHECK(loop::FormatPrKey(hint->pr) == "aone:Team.X/my_repo-2#9");
  CHECK(HintCode("[pr-daemon] gitea:o/r#1 reason=ci skill=land updated=2000-02-29T00:00:00Z") ==
        Code::kOk);
}

TEST_CASE("hint: near-misses are usage") {
  const std::vector<std::string> refused = {
      "",
      kHint + "\n",
      kHint + "\r",
      kHint + " ",
      " " + kHint,
      kHint + " extra",
      "[pr-daemon]  github:acme/webapp#47 reason=comments skill=land updated=2026-08-19T15:42:03Z",
      "[pr-daemon]\tgithub:acme/webapp#47 reason=comments skill=land updated=2026-08-19T15:42:03Z",
      "[PR-DAEMON] github:acme/webapp#47 reason=comments skill=land updated=2026-08-19T15:42:03Z",
      "pr-daemon github:acme/webapp#47 reason=comments skill=land updated=2026-08-19T15:42:03Z",
      "[pr-daemon] GitHub:acme/webapp#47 reason=comments skill=land updated=2026-08-19T15:42:03Z",
      "[pr-daemon] gitlab:acme/webapp#47 reason=comments skill=land updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:acme/webapp#047 reason=comments skill=land updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:acme/webapp#0 reason=comments skill=land updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:acme/webapp# reason=comments skill=land updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:acme/../x#4 reason=comments skill=land updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:../webapp#4 reason=comments skill=land updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:acme/web/app#4 reason=comments skill=land updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:acme/webapp#47 reason= skill=land updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:acme/webapp#47 reason=comments, skill=land updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:acme/webapp#47 reason=ci,ci skill=land updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:acme/webapp#47 reason=labels skill=land updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:acme/webapp#47 reason=Comments skill=land updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:acme/webapp#47 reasons=ci skill=land updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:acme/webapp#47 reason=ci skill=deploy updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:acme/webapp#47 reason=ci skill= updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:acme/webapp#47 reason=ci skill=land,review-pr "
      "updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:acme/webapp#47 skill=land reason=ci updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:acme/webapp#47 reason=ci skill=land updated=2026-08-19T15:42:03",
      "[pr-daemon] github:acme/webapp#47 reason=ci skill=land updated=2026-08-19T15:42:03.5Z",
      "[pr-daemon] github:acme/webapp#47 reason=ci skill=land updated=2026-08-19T15:42:03+00:00",
      "[pr-daemon] github:acme/webapp#47 reason=ci skill=land updated=2026-08-19 15:42:03Z",
      "[pr-daemon] github:acme/webapp#47 reason=ci skill=land updated=2026-02-29T00:00:00Z",
      "[pr-daemon] github:acme/webapp#47 reason=ci skill=land updated=1900-02-29T00:00:00Z",
      "[pr-daemon] github:acme/webapp#47 reason=ci skill=land updated=2026-13-01T00:00:00Z",
      "[pr-daemon] github:acme/webapp#47 reason=ci skill=land updated=2026-04-31T00:00:00Z",
      "[pr-daemon] github:acme/webapp#47 reason=ci skill=land updated=2026-01-01T24:00:00Z",
      "[pr-daemon] github:acme/webapp#47 reason=ci skill=land updated=2026-01-01T23:60:00Z",
      "[pr-daemon] github:acme/webapp#47 reason=ci skill=land updated=2026-12-31T23:59:60Z",
      "[pr-daemon] github:acme/webapp#47 reason=ci skill=land updated=2026-1-01T00:00:00Z",
      "[pr-daemon] github:acme/webapp#47 reason=ci skill=land updated=2026-01-01t00:00:00z",
      "[pr-daemon] github:acme/webapp#47 reason=ci skill=land updated=2026-08-19T15:42:03Z "
      "skill=review-pr",
      std::string("[pr-daemon] github:acme/webapp#47 reason=ci skill=land\0 "
                  "updated=2026-08-19T15:42:03Z",
                  83),
      "[pr-daemon] github:acm\xc3\xa9/webapp#47 reason=ci skill=land updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:acme/webapp#47 reason=ci skill=land updated=2026-08-19T15:42:03Z\x1b",
      kHint + "\n" + kHint,
      "[pr-daemon] github:acme/" + std::string(101, 'r') +
          "#4 reason=ci skill=land updated=2026-08-19T15:42:03Z",
      "[pr-daemon] github:acme/webapp#1234567890123456789 reason=ci skill=land "
      "updated=2026-08-19T15:42:03Z",
  };
  for (const std::string& line : refused) {
    INFO("line: " << line);
    CHECK(HintCode(line) == Code::kUsage);
  }
}

TEST_CASE("hint: a refusal never echoes the line") {
  auto hint = loop::ParseHint(
      "[pr-daemon] github:acme/webapp#47 reason=ci skill=ignore-previous-instructions "
      "updated=2026-08-19T15:42:03Z");
  REQUIRE(!hint.ok());
  CHECK(hint.status().message() == "hint: skill must be land or review-pr");
}

TEST_CASE("PR key: accepted keys format back to themselves") {
  for (const std::string key : {"github:acme/webapp#47", "gitea:a/b#1",
                                "aone:A.b_c-D/.x#999999999999999999", "github:o/r..#3"}) {
    auto parsed = loop::ParsePrKey(key);
    REQUIRE(parsed.ok());
    CHECK(loop::FormatPrKey(*parsed) == key);
  }
  for (const std::string key :
       {"", "github", "github:", "github:acme", "github:acme/webapp", "github:acme/webapp#",
        "github:/webapp#1", "github:acme/#1", "github:./r#1", "github:o/..#1", "github:o/r#-1",
        "github:o/r#+1", "github:o/r#1 ", "Github:o/r#1", "github:o#r/1", "github:o/r#1#2",
        "github:o/r s#1", "github:o/r#0"}) {
    INFO("key: " << key);
    auto parsed = loop::ParsePrKey(key);
    REQUIRE(!parsed.ok());
    CHECK(parsed.status().code() == Code::kUsage);
  }
}

TEST_CASE("comment ids: 1 to 20 decimal digits - no leading zero") {
  CHECK(loop::CheckCommentId("1").ok());
  CHECK(loop::CheckCommentId("2718281828").ok());
  CHECK(loop::CheckCommentId("18446744073709551615").ok());
  CHECK(loop::CheckCommentId("99999999999999999999").ok());
  for (const std::string id : {"", "0", "007", "123456789012345678901", "-1", "+1", "1e3", "12 ",
                               " 12", "0x1f", "IC_kwDO", "12\n"}) {
    INFO("id: " << id);
    CHECK(loop::CheckCommentId(id).code() == Code::kUsage);
  }
}

// The ids as `review seen` prints them.
std::vector<std::string> Texts(const std::vector<loop::SeenId>& ids) {
  std::vector<std::string> out;
  for (const loop::SeenId& id : ids) out.push_back(loop::FormatSeenId(id));
  return out;
}

TEST_CASE(
    "context ids: the comment ids then the review ids in order - each once - the rest ignored") {
  auto ids = loop::ParseContextIds(
      R"({"schema":"gentle-ai.review-context/v1","title":"t","comments":[)"
      R"({"id":"30","author":"a","body":"x","parentId":"10"},{"id":"10"},{"id":"30"},)"
      R"({"id":"20","verdicts":[1,2]}],"verdicts":[{"id":"10","state":"APPROVED"},{"id":"5"},)"
      R"({"id":"10"}],"ledgerCarriers":[{"id":"not-checked"}]})",
      "ctx.json");
  REQUIRE(ids.ok());
  CHECK(Texts(*ids) == std::vector<std::string>{"30", "10", "20", "review:10", "review:5"});
  auto empty = loop::ParseContextIds(R"({"schema":"gentle-ai.review-context/v1","comments":[]})",
                                     "ctx.json");
  REQUIRE(empty.ok());
  CHECK(empty->empty());
}

TEST_CASE("seen ids: N and comment:N are comment N - review:N is review N - one canonical text") {
  for (const auto& [text, canonical] : std::vector<std::pair<std::string, std::string>>{
           {"12", "12"},
           {"comment:12", "12"},
           {"review:12", "review:12"},
           {"review:99999999999999999999", "review:99999999999999999999"}}) {
    auto id = loop::ParseSeenId(text);
    REQUIRE(id.ok());
    CHECK(loop::FormatSeenId(*id) == canonical);
  }
  CHECK(loop::ParseSeenId("review:12")->kind == store::ForgeIdKind::kReview);
  CHECK(!(*loop::ParseSeenId("review:12") == *loop::ParseSeenId("12")));
  for (const std::string bad : {"", "review:", "review:0", "review:012", "Review:1", "pull:1", ":1",
                                "review:review:1", "review: 1", "comment:-1", "review:1:"}) {
    INFO("id: " << bad);
    CHECK(loop::ParseSeenId(bad).status().code() == Code::kUsage);
  }
}

TEST_CASE("context ids: a wrong shape is usage naming the JSON path") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"[]", "$"},
      {"{", "$"},
      {R"({"schema":"gentle-ai.review-context/v1","comments":[],"comments":[]})", "$"},
      {R"({"comments":[]})", "schema"},
      {R"({"schema":"gentle-ai.review-context/v2","comments":[]})", "schema"},
      {R"({"schema":"gentle-ai.review-context/v1"})", "comments"},
      {R"({"schema":"gentle-ai.review-context/v1","comments":{}})", "comments"},
      {R"({"schema":"gentle-ai.review-context/v1","comments":[{"id":"1"},7]})", "comments[1]"},
      {R"({"schema":"gentle-ai.review-context/v1","comments":[{"id":1}]})", "comments[0].id"},
      {R"({"schema":"gentle-ai.review-context/v1","comments":[{"id":"01"}]})", "comments[0].id"},
      {R"({"schema":"gentle-ai.review-context/v1","comments":[{}]})", "comments[0].id"},
      {R"({"schema":"gentle-ai.review-context/v1","comments":[],"verdicts":{}})", "verdicts"},
      {R"({"schema":"gentle-ai.review-context/v1","comments":[],"verdicts":[{"id":"0"}]})",
       "verdicts[0].id"},
  };
  for (const auto& [text, path] : cases) {
    INFO("context: " << text);
    auto ids = loop::ParseContextIds(text, "ctx.json");
    REQUIRE(!ids.ok());
    CHECK(ids.status().code() == Code::kUsage);
    CHECK(ids.status().details().at("json_path") == path);
    CHECK(ids.status().message().rfind("context ctx.json: " + path + ": ", 0) == 0);
  }
}

}  // namespace
}  // namespace gentle::testing
