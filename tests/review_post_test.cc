// `review post` end to end (docs/loop.md "review post"): the built gentle-ai-test posts a
// round's comment on forge fakes started on 127.0.0.1 (tests/support/fake_forge.h): GitHub's REST
// shapes over HTTPS through the real `gh`, Gitea's over HTTP through libcurl. Each case asserts
// the exact bytes the forge was sent, the ids the seen ledger holds afterwards, the exit code and
// error code, and how many comments the forge holds: a crash between the forge's answer and the
// record (fault points, store/fault_point.h) is recovered by the next post, `seen new` or `watch`
// without a second comment, and a comment by anyone but the authenticated user is never taken.
#include <sqlite3.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/fake_forge.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/sanitizer_sample.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

const std::string kPr47 = "acme/webapp#47";

// A repository with one lineage whose round 1 holds a reviewer's verdict, and a forge fake
// holding PR 47 of acme/webapp.
class PostRepo {
 public:
  PostRepo(FakeForge::Kind kind, const std::string& verdict = "REQUEST_CHANGES")
      : kind_(kind), forge_(kind, tmp_.path() + "/forge") {
    repo_.GitOk({"remote", "add", "origin",
                 kind == FakeForge::Kind::kGithub ? "https://github.com/acme/webapp.git"
                                                  : forge_.OriginUrl("acme", "webapp")});
    lineage_ = repo_.StartNew()["lineage"];
    repo_.ReviewOk({"verdict", "--lineage", lineage_, "--verdict", verdict, "--actor", "ana",
                    "--role", "reviewer", "--body", "please rename x"});
    world_ = {{"me", "gentle-bot"},
              {"pulls",
               {{kPr47,
                 {{"number", 47},
                  {"state", "open"},
                  {"merged", false},
                  {"draft", false},
                  {"mergeable", true},
                  {"head", {{"sha", std::string(40, 'a')}, {"ref", "feature"}}},
                  {"updated_at", "2026-12-01T09:00:00Z"},
                  {"labels", Json::array()}}}}},
              {"issue_comments", {{kPr47, Json::array()}}},
              {"review_comments", {{kPr47, Json::array()}}},
              {"reviews", {{kPr47, Json::array()}}}};
    forge_.SetWorld(world_);
  }

  std::string pr() const {
    return (kind_ == FakeForge::Kind::kGithub ? "github:" : "gitea:") + kPr47;
  }
  const std::string& lineage() const { return lineage_; }
  LifecycleRepo& repo() { return repo_; }
  FakeForge& forge() { return forge_; }

  RunResult Review(const std::vector<std::string>& args, Env env = {}) {
    Env all = forge_.ClientEnv();
    for (const auto& [k, v] : env) all[k] = v;
    return repo_.Review(args, all);
  }
  RunResult Post(std::vector<std::string> extra = {}, Env env = {}) {
    std::vector<std::string> args = {"post", "--lineage", lineage_, "--pr", pr()};
    args.insert(args.end(), extra.begin(), extra.end());
    return Review(args, env);
  }

  // The world as the fake holds it now (its POSTs write it).
  Json World() const {
    std::ifstream in(tmp_.path() + "/forge/world.json");
    return Json::parse(in);
  }
  void SetWorld(const Json& world) { forge_.SetWorld(world); }
  // The reviews (or issue comments) of PR 47 on the forge.
  Json Items(const std::string& table) const { return World()[table][kPr47]; }
  // The POSTs the forge was sent.
  std::vector<Json> Posts() const {
    std::vector<Json> out;
    for (const Json& r : forge_.Requests()) {
      if (r["method"] == "POST") out.push_back(r);
    }
    return out;
  }
  // The seen ledger of the PR: "ID KIND" per id.
  std::vector<std::string> Seen() {
    RunResult list = Review({"seen", "list", "--pr", pr()});
    INFO(list.out << list.err);
    REQUIRE(list.exit_code == 0);
    std::vector<std::string> out;
    const Json doc = list.Json();
    for (const Json& e : doc["ids"]) {
      out.push_back(e["id"].get<std::string>() + " " + e["kind"].get<std::string>());
    }
    return out;
  }

 private:
  FakeForge::Kind kind_;
  TempDir tmp_;
  LifecycleRepo repo_;
  FakeForge forge_;
  std::string lineage_;
  Json world_;
};

// The marker's nonce of a posted text, through parse-comment.
std::string NonceOf(PostRepo& p, const std::string& text) {
  TempDir dir;
  WriteFile(dir.path() + "/c.md", text);
  RunResult parsed = p.Review({"parse-comment", dir.path() + "/c.md"});
  INFO(parsed.out << parsed.err);
  REQUIRE(parsed.exit_code == 0);
  return parsed.Json()["nonce"].get<std::string>();
}

// What the run printed holds no token.
void ExpectNoToken(const RunResult& run) {
  CHECK(run.out.find(FakeForge::kToken) == std::string::npos);
  CHECK(run.err.find(FakeForge::kToken) == std::string::npos);
}

// One POST was sent to `path` with exactly the comment `review comment --nonce` renders and
// `event` (none when empty); returns the posted text.
std::string ExpectPosted(PostRepo& p, const std::string& path, const std::string& event) {
  const std::vector<Json> posts = p.Posts();
  REQUIRE(posts.size() == 1);
  CHECK(posts[0]["path"] == path);
  CHECK(posts[0]["authorization"] == std::string("token ") + FakeForge::kToken);
  const Json sent = Json::parse(posts[0]["body"].get<std::string>());
  const std::string text = sent["body"];
  if (event.empty()) {
    CHECK_FALSE(sent.contains("event"));
  } else {
    CHECK(sent["event"] == event);
  }
  // The renderer of `review comment`, byte for byte, with the same nonce.
  RunResult comment = p.repo().Review(
      {"comment", "--lineage", p.lineage(), "--nonce", NonceOf(p, text)}, {}, false);
  REQUIRE(comment.exit_code == 0);
  CHECK(comment.out == text);
  return text;
}

// The next post answers review:1000, the forge holds that one review, and the seen ledger
// records it once, as posted; returns the post's JSON.
Json ExpectOneReviewRecorded(PostRepo& p) {
  RunResult next = p.Post();
  INFO(next.out << next.err);
  REQUIRE(next.exit_code == 0);
  CHECK(next.Json()["id"] == "review:1000");
  CHECK(p.Items("reviews").size() == 1);
  CHECK(p.Seen() == std::vector<std::string>{"review:1000 posted"});
  return next.Json();
}

struct Shape {
  FakeForge::Kind kind;
  std::string as;
  std::string path;
  std::string event;
  std::string table;
  std::string id;
};

void PostAndRepeat(const Shape& shape) {
  PostRepo p(shape.kind);
  RunResult run = p.Post({"--as", shape.as});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  ExpectNoToken(run);
  const Json out = run.Json();
  CHECK(out["schema"] == "gentle-ai.review-post/v1");
  CHECK(out["pr"] == p.pr());
  CHECK(out["lineage"] == p.lineage());
  CHECK(out["round"] == 1);
  CHECK(out["role"] == "reviewer");
  CHECK(out["verdict"] == "REQUEST_CHANGES");
  CHECK(out["as"] == shape.as);
  CHECK(out["id"] == shape.id);
  CHECK(out["created"] == true);
  CHECK(out["recovered"] == Json::array());
  ExpectPosted(p, shape.path, shape.event);
  CHECK(p.Items(shape.table).size() == 1);
  CHECK(p.Seen() == std::vector<std::string>{shape.id + " posted"});
  // Again: the recorded id, nothing sent.
  p.forge().ClearRequests();
  RunResult again = p.Post({"--as", shape.as});
  INFO(again.out << again.err);
  REQUIRE(again.exit_code == 0);
  CHECK(again.Json()["id"] == shape.id);
  CHECK(again.Json()["created"] == false);
  CHECK(again.Json()["recorded_at"] == out["recorded_at"]);
  CHECK(p.Posts().empty());
  CHECK(p.Items(shape.table).size() == 1);
}

}  // namespace

TEST_CASE("review post github: a PR review with the verdict's event - recorded - idempotent") {
  PostAndRepeat({FakeForge::Kind::kGithub, "review", "/api/v3/repos/acme/webapp/pulls/47/reviews",
                 "REQUEST_CHANGES", "reviews", "review:1000"});
}

TEST_CASE("review post github: --as comment posts an issue comment - recorded - idempotent") {
  PostAndRepeat({FakeForge::Kind::kGithub, "comment",
                 "/api/v3/repos/acme/webapp/issues/47/comments", "", "issue_comments", "1000"});
}

TEST_CASE("review post gitea: a PR review with the verdict's event - recorded - idempotent") {
  PostAndRepeat({FakeForge::Kind::kGitea, "review", "/api/v1/repos/acme/webapp/pulls/47/reviews",
                 "REQUEST_CHANGES", "reviews", "review:1000"});
}

TEST_CASE("review post gitea: --as comment posts an issue comment - recorded - idempotent") {
  PostAndRepeat({FakeForge::Kind::kGitea, "comment", "/api/v1/repos/acme/webapp/issues/47/comments",
                 "", "issue_comments", "1000"});
}

TEST_CASE("review post: APPROVE is GitHub's APPROVE and Gitea's APPROVED - human output") {
  for (const auto& [kind, event] : std::vector<std::pair<FakeForge::Kind, std::string>>{
           {FakeForge::Kind::kGithub, "APPROVE"}, {FakeForge::Kind::kGitea, "APPROVED"}}) {
    PostRepo p(kind, "APPROVE");
    std::vector<std::string> args = {"post", "--lineage", p.lineage(), "--pr", p.pr()};
    Env env = p.forge().ClientEnv();
    RunResult run = p.repo().Review(args, env, /*json=*/false);
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(run.out == "posted review:1000 on " + p.pr() + " (round 1, reviewer, APPROVE)\n");
    const Json sent = Json::parse(p.Posts().at(0)["body"].get<std::string>());
    CHECK(sent["event"] == event);
  }
}

TEST_CASE("review post: killed after the forge took it - the next post records it - no second") {
  for (FakeForge::Kind kind : {FakeForge::Kind::kGithub, FakeForge::Kind::kGitea}) {
    PostRepo p(kind);
    RunResult killed = p.Post({}, {{"GENTLE_FAULT_POINT", "post:sent"}});
    INFO(killed.out << killed.err);
    REQUIRE(killed.exit_code == 86);
    CHECK(p.Items("reviews").size() == 1);
    CHECK(p.Seen().empty());  // the failure the intent exists for: posted, not recorded
    p.forge().ClearRequests();
    const Json next = ExpectOneReviewRecorded(p);
    CHECK(next["created"] == false);
    CHECK(next["recovered"] == Json::array({"review:1000"}));
    CHECK(p.Posts().empty());
  }
}

TEST_CASE("review post: killed after the forge took it - seen new records it first") {
  PostRepo p(FakeForge::Kind::kGithub);
  REQUIRE(p.Post({}, {{"GENTLE_FAULT_POINT", "post:sent"}}).exit_code == 86);
  TempDir dir;
  WriteFile(dir.path() + "/context.json",
            R"({"schema":"gentle-ai.review-context/v1","comments":[{"id":"7"}],)"
            R"("verdicts":[{"id":"1000"}]})");
  RunResult fresh =
      p.Review({"seen", "new", "--pr", p.pr(), "--context", dir.path() + "/context.json"});
  INFO(fresh.out << fresh.err);
  REQUIRE(fresh.exit_code == 0);
  CHECK(fresh.Json()["ids"] == Json::array({"7"}));  // its own review is not new
  CHECK(p.Seen() == std::vector<std::string>{"review:1000 posted"});
  CHECK(p.Items("reviews").size() == 1);
  // Nothing open any more: seen new is a reader again.
  const auto before = p.repo().StoreBytes();
  REQUIRE(p.Review({"seen", "new", "--pr", p.pr(), "--context", dir.path() + "/context.json"})
              .exit_code == 0);
  CHECK(p.repo().StoreBytes() == before);
}

TEST_CASE("review post: killed after the forge took it - review watch records it first") {
  PostRepo p(FakeForge::Kind::kGithub);
  REQUIRE(p.Post({"--as", "comment"}, {{"GENTLE_FAULT_POINT", "post:sent"}}).exit_code == 86);
  RunResult watch = p.Review({"watch", "--once", "--pr", p.pr()});
  INFO(watch.out << watch.err);
  REQUIRE(watch.exit_code == 0);
  CHECK(watch.Json()["errors"] == Json::array());
  CHECK(p.Seen() == std::vector<std::string>{"1000 posted"});
  CHECK(p.Items("issue_comments").size() == 1);
  CHECK(p.Posts().size() == 1);  // the killed run's only
}

TEST_CASE("review post: killed before sending - the next post sends it once") {
  PostRepo p(FakeForge::Kind::kGitea);
  REQUIRE(p.Post({}, {{"GENTLE_FAULT_POINT", "post:intent-recorded"}}).exit_code == 86);
  CHECK(p.Posts().empty());
  CHECK(ExpectOneReviewRecorded(p)["created"] == true);
  CHECK(p.Posts().size() == 1);
}

// An open intent is sent again with the event its row holds, byte for byte: a word this build
// does not name (a newer release's) is neither dropped nor replaced by the verdict's event.
TEST_CASE("review post: an open intent's event is sent again exactly as its row holds it") {
  PostRepo p(FakeForge::Kind::kGitea);
  REQUIRE(p.Post({}, {{"GENTLE_FAULT_POINT", "post:intent-recorded"}}).exit_code == 86);
  const std::string file = p.repo().common_dir() + "/gentle-ai/review-loop.sqlite";
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(file.c_str(), &db) == SQLITE_OK);
  const int updated = sqlite3_exec(
      db, "UPDATE post_intents SET event = 'REQUEST_CHANGES_LATER' WHERE event = 'REQUEST_CHANGES'",
      nullptr, nullptr, nullptr);
  const int changes = sqlite3_changes(db);
  sqlite3_close(db);
  REQUIRE(updated == SQLITE_OK);
  REQUIRE(changes == 1);
  CHECK(ExpectOneReviewRecorded(p)["created"] == true);
  const std::vector<Json> posts = p.Posts();
  REQUIRE(posts.size() == 1);
  CHECK(Json::parse(posts[0]["body"].get<std::string>())["event"] == "REQUEST_CHANGES_LATER");
}

TEST_CASE("review post: a comment by another user carrying our marker is never taken as ours") {
  PostRepo p(FakeForge::Kind::kGithub);
  REQUIRE(p.Post({}, {{"GENTLE_FAULT_POINT", "post:sent"}}).exit_code == 86);
  // Someone else's review now holds the text (our marker and nonce included); ours is gone.
  Json world = p.World();
  world["reviews"][kPr47][0]["user"]["login"] = "mallory";
  p.SetWorld(world);
  p.forge().ClearRequests();
  RunResult next = p.Post();
  INFO(next.out << next.err);
  REQUIRE(next.exit_code == 0);
  CHECK(next.Json()["id"] == "review:1001");  // sent once more, by us
  CHECK(p.Posts().size() == 1);
  CHECK(p.Seen() == std::vector<std::string>{"review:1001 posted"});
}

TEST_CASE("review post: sent twice and on the forge neither time - reported - nothing recorded") {
  PostRepo p(FakeForge::Kind::kGithub);
  auto forget = [&p] {
    Json world = p.World();
    world["reviews"][kPr47] = Json::array();
    p.SetWorld(world);
  };
  REQUIRE(p.Post({}, {{"GENTLE_FAULT_POINT", "post:sent"}}).exit_code == 86);
  forget();
  REQUIRE(p.Post({}, {{"GENTLE_FAULT_POINT", "post:sent"}}).exit_code == 86);  // the one retry
  forget();
  p.forge().ClearRequests();
  RunResult reported = p.Post();
  INFO(reported.out << reported.err);
  CHECK(reported.exit_code == 3);
  CHECK(reported.Json()["error"]["code"] == "not_found");
  CHECK(p.Posts().empty());
  CHECK(p.Seen().empty());
  // Reported once: the next post is a new one.
  RunResult again = p.Post();
  REQUIRE(again.exit_code == 0);
  CHECK(again.Json()["created"] == true);
  CHECK(again.Json()["id"] == "review:1002");
}

TEST_CASE("review post: the forge's refusals are codes - nothing recorded - no token shown") {
  struct Refusal {
    int status;
    Json headers;
    std::string code;
    int exit_code;
  };
  const std::vector<Refusal> refusals = {
      {401, Json::object(), "forbidden", 6},
      {403, Json::object(), "forbidden", 6},
      {404, Json::object(), "not_found", 3},
      {422, Json::object(), "wrong_state", 6},
      {403, {{"X-RateLimit-Remaining", "0"}, {"Retry-After", "60"}}, "busy", 12},
      {429, {{"Retry-After", "60"}}, "busy", 12},
  };
  for (FakeForge::Kind kind : {FakeForge::Kind::kGithub, FakeForge::Kind::kGitea}) {
    PostRepo p(kind);
    for (const Refusal& r : refusals) {
      INFO("HTTP " << r.status << " " << r.headers.dump());
      Json world = p.World();
      // A forge that echoes the credentials: the message is shown without them.
      world["fail_post"] = {
          {"status", r.status},
          {"headers", r.headers},
          {"body", Json({{"message", std::string("no: token ") + FakeForge::kToken}}).dump()}};
      p.SetWorld(world);
      RunResult run = p.Post();
      INFO(run.out << run.err);
      CHECK(run.exit_code == r.exit_code);
      const Json error = run.Json()["error"];
      CHECK(error["code"] == r.code);
      CHECK(error["details"]["http_status"] == std::to_string(r.status));
      ExpectNoToken(run);
      CHECK(p.Seen().empty());
      CHECK(p.Items("reviews").empty());
    }
    // Nothing was left pending: once the forge takes it, the post is new.
    Json world = p.World();
    world.erase("fail_post");
    p.SetWorld(world);
    RunResult ok = p.Post();
    INFO(ok.out << ok.err);
    REQUIRE(ok.exit_code == 0);
    CHECK(ok.Json()["created"] == true);
    CHECK(ok.Json()["recovered"] == Json::array());
  }
}

TEST_CASE("review post: a forge that cannot be reached leaves the post pending - busy") {
  PostRepo p(FakeForge::Kind::kGitea);
  p.forge().Stop();
  RunResult down = p.Post();
  INFO(down.out << down.err);
  CHECK(down.exit_code == 12);
  CHECK(down.Json()["error"]["code"] == "busy");
  ExpectNoToken(down);
  p.forge().Start();
  ExpectOneReviewRecorded(p);
}

TEST_CASE("review post github: a redirect is not followed - the other host gets no token") {
  PostRepo p(FakeForge::Kind::kGithub);
  // The other host: a second fake on another loopback port, trusted through the same
  // certificate, recording every request and its Authorization.
  TempDir other;
  std::filesystem::copy_file(p.forge().dir() + "/cert.pem", other.path() + "/cert.pem");
  std::filesystem::copy_file(p.forge().dir() + "/key.pem", other.path() + "/key.pem");
  FakeForge elsewhere(FakeForge::Kind::kGithub, other.path());
  elsewhere.SetWorld(p.World());
  Json world = p.World();
  world["redirect"] = {{"status", 302},
                       {"location", "https://localhost:" + std::to_string(elsewhere.port()) +
                                        "/api/v3/repos/acme/webapp/pulls/47/reviews"}};
  p.SetWorld(world);
  RunResult run = p.Post();
  INFO(run.out << run.err);
  CHECK(run.exit_code == 12);
  const Json error = run.Json()["error"];
  CHECK(error["code"] == "busy");
  CHECK(error["message"] ==
        "the forge redirected repos/acme/webapp/pulls/47/reviews (HTTP 302): redirects are not "
        "followed, a token never leaves its host");
  CHECK(error["details"]["pending"] == "true");
  CHECK(elsewhere.Requests().empty());
  REQUIRE(p.Posts().size() == 1);
  CHECK(p.Posts()[0]["status"] == 302);
  CHECK(p.Seen().empty());
}

TEST_CASE(
    "review post github: a host that accepts and never answers ends the post at its deadline") {
  PostRepo p(FakeForge::Kind::kGithub);
  SilentHost silent;
  Env env = p.forge().ClientEnv();
  env["GH_HOST"] = "localhost:" + std::to_string(silent.port());
  env["GENTLE_FORGE_TIMEOUT_MS"] = "1000";  // the test build's shorter request deadline
  env["GENTLE_LOCK_TIMEOUT_MS"] = "2000";
  const auto start = std::chrono::steady_clock::now();
  RunResult run = GentleAi(p.repo().ReviewArgs({"post", "--lineage", p.lineage(), "--pr", p.pr()}),
                           p.repo().root(), env, {}, 30000);
  const auto took = std::chrono::steady_clock::now() - start;
  INFO(run.out << run.err);
  CHECK_FALSE(run.timed_out);
  CHECK(run.exit_code == 12);
  const Json error = run.Json()["error"];
  CHECK(error["code"] == "busy");
  CHECK(error["message"] == "forge unreachable: Timeout was reached");
  CHECK(error["details"]["pending"] == "true");
  CHECK(took < std::chrono::seconds(15));
}

TEST_CASE("review post gitea: an undeclared host gets no token - its 401 says how to declare it") {
  PostRepo p(FakeForge::Kind::kGitea);
  Json world = p.World();
  world["fail_post"] = {{"status", 401}, {"body", R"({"message":"token is required"})"}};
  p.SetWorld(world);
  // The fake's host not declared Gitea (no gentle-ai.giteaHost), $GITEA_TOKEN still set.
  RunResult run = p.Post({}, {{"GIT_CONFIG_COUNT", "0"}});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 6);
  const std::string authority = "127.0.0.1:" + std::to_string(p.forge().port());
  const Json error = run.Json()["error"];
  CHECK(error["code"] == "forbidden");
  CHECK(error["message"] ==
        authority +
            " answered 401 to a request sent without a token: it is not declared a Gitea host, so "
            "$GITEA_TOKEN is not sent to it; declare it (.claude/tracker.json \"remoteHost\": "
            "\"gitea\", or git config gentle-ai.giteaHost " +
            authority + ") or give git's credential helper its token; nothing was recorded");
  CHECK(error["details"]["http_status"] == "401");
  REQUIRE(p.Posts().size() == 1);
  CHECK(p.Posts()[0]["authorization"].is_null());
  CHECK(p.Seen().empty());
  // Declared, the token goes: the post is new (nothing was left pending).
  world.erase("fail_post");
  p.SetWorld(world);
  p.forge().ClearRequests();
  RunResult declared = p.Post();
  INFO(declared.out << declared.err);
  REQUIRE(declared.exit_code == 0);
  CHECK(declared.Json()["created"] == true);
  CHECK(declared.Json()["recovered"] == Json::array());
  ExpectPosted(p, "/api/v1/repos/acme/webapp/pulls/47/reviews", "REQUEST_CHANGES");
}

TEST_CASE(
    "review post gitea: a token missing from the environment is read from .env.claude in HOME") {
  PostRepo p(FakeForge::Kind::kGitea);
  TempDir home;
  WriteFile(
      home.path() + "/.env.claude",
      std::string("# the harness's tokens\nexport GITEA_TOKEN=\"") + FakeForge::kToken + "\"\n");
  RunResult run = p.Post({}, {{"GITEA_TOKEN", ""}, {"HOME", home.path()}});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  ExpectNoToken(run);
  CHECK(run.Json()["id"] == "review:1000");
  const std::vector<Json> posts = p.Posts();
  REQUIRE(posts.size() == 1);
  CHECK(posts[0]["authorization"] == std::string("token ") + FakeForge::kToken);
}

TEST_CASE("review post: a second post while the forge is down says what is pending") {
  PostRepo p(FakeForge::Kind::kGitea);
  p.forge().Stop();
  RunResult first = p.Post();
  CHECK(first.exit_code == 12);
  RunResult again = p.Post();
  INFO(again.out << again.err);
  CHECK(again.exit_code == 12);
  const Json error = again.Json()["error"];
  CHECK(error["code"] == "busy");
  const std::string pending = "; pending: the reviewer's post of round 1 of " + p.lineage() +
                              " on " + p.pr() +
                              ", sent 1 time with its outcome unknown, is looked for again by "
                              "the next post";
  const std::string message = error["message"];
  CHECK(message.size() > pending.size());
  CHECK(message.substr(message.size() - pending.size()) == pending);
  CHECK(error["details"]["pending"] == "true");
  CHECK(error["details"]["pending_round"] == "1");
  CHECK(error["details"]["pending_role"] == "reviewer");
  ExpectNoToken(again);
  p.forge().Start();
  ExpectOneReviewRecorded(p);
}

TEST_CASE("review post: flags are checked before anything is read or sent") {
  PostRepo p(FakeForge::Kind::kGithub);
  const auto before = p.repo().StoreBytes();
  for (const auto& [args, code] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--as", "issue"}, "usage"},
           {{"--model", "a b"}, "usage"},
           {{"--round", "0"}, "usage"},
       }) {
    RunResult run = p.Post(args);
    CHECK(run.exit_code == 2);
    CHECK(run.Json()["error"]["code"] == code);
  }
  RunResult aone = p.Review({"post", "--lineage", p.lineage(), "--pr", "aone:acme/webapp#47"});
  CHECK(aone.exit_code == 2);
  CHECK(p.repo().StoreBytes() == before);
  CHECK(p.forge().Requests().empty());
}

}  // namespace gentle::testing

namespace gentle::testing {

// Every fault point `review post` passes (GENTLE_FAULT_TRACE), on both forges, with no ledger
// yet (its creation's points come first) and with one (so the seen ledger's points are those of
// recording the posted id): killed there, the next post answers the one id, the forge holds
// exactly one review, and the seen ledger records it as posted once.
TEST_CASE("review post: killed at each of its fault points - the next post recovers exactly one") {
  const std::vector<std::pair<FakeForge::Kind, bool>> cases = {{FakeForge::Kind::kGithub, false},
                                                               {FakeForge::Kind::kGithub, true},
                                                               {FakeForge::Kind::kGitea, false},
                                                               {FakeForge::Kind::kGitea, true}};
  for (const auto& [kind, seeded] : cases) {
    INFO((kind == FakeForge::Kind::kGithub ? "github" : "gitea") << (seeded ? ", a ledger" : ""));
    auto seed = [seeded = seeded](PostRepo& p) {
      if (seeded) p.repo().ReviewOk({"seen", "add", "--pr", "github:acme/webapp#48", "--id", "1"});
    };
    std::vector<std::string> points;
    {
      PostRepo traced(kind);
      seed(traced);
      TempDir dir;
      RunResult run = traced.Post({}, {{"GENTLE_FAULT_TRACE", dir.path() + "/trace"}});
      REQUIRE(run.exit_code == 0);
      std::istringstream lines(ReadFile(dir.path() + "/trace"));
      for (std::string line; std::getline(lines, line);) points.push_back(line);
    }
    for (const char* expected :
         {"post:intent-recorded", "post:sent", "seen:committed", "post:id-recorded"}) {
      CHECK(std::find(points.begin(), points.end(), expected) != points.end());
    }
    // Every point in the normal build; the first, one between and the last under the sanitizers.
    for (const std::string& point : SanitizerSample(points, 3)) {
      INFO("killed at " << point);
      PostRepo p(kind);
      seed(p);
      RunResult killed = p.Post({}, {{"GENTLE_FAULT_POINT", point}});
      INFO(killed.out << killed.err);
      REQUIRE(killed.exit_code == 86);
      ExpectOneReviewRecorded(p);
    }
  }
}

}  // namespace gentle::testing
