// The PR daemon's pure parts and its schedule (docs/watch.md): gh's -i transcript, the PR
// metadata reader, origin URLs and worktree lists, the reasons, and the per-PR schedule run with
// a fake clock and a fake forge in-process (no sleep, no network).
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "loop/hint.h"
#include "tests/support/temp_dir.h"
#include "watch/forge_client.h"
#include "watch/hint_sink.h"
#include "watch/http_response.h"
#include "watch/http_transport.h"
#include "watch/listed_id_kind.h"
#include "watch/post_as.h"
#include "watch/pr_meta.h"
#include "watch/reasons.h"
#include "watch/routing.h"
#include "watch/schedule.h"
#include "watch/watcher.h"

namespace gentle::testing {
namespace {

using watch::HttpResponse;
using watch::PrMeta;

// The names are stored or printed (a post intent's post_as, the known ids "<kind>:<id>", a cycle
// report's sink): each enumerator has its one name, and each name reads back as it.
TEST_CASE("watch units: the name tables of post-as - listed id kinds - hint sinks") {
  std::vector<std::string> names;
  for (watch::PostAs as : watch::kAllPostAs) {
    names.emplace_back(watch::PostAsName(as));
    CHECK(watch::ParsePostAs(watch::PostAsName(as)) == as);
  }
  CHECK(names == std::vector<std::string>{"review", "comment"});
  names.clear();
  for (watch::ListedIdKind kind : watch::kAllListedIdKinds) {
    names.emplace_back(watch::ListedIdKindName(kind));
    CHECK(watch::ParseListedIdKind(watch::ListedIdKindName(kind)) == kind);
  }
  CHECK(names == std::vector<std::string>{"comment", "review_comment", "review"});
  CHECK(watch::IdSpaceOf(watch::ListedIdKind::kComment) == store::ForgeIdKind::kComment);
  CHECK(watch::IdSpaceOf(watch::ListedIdKind::kReviewComment) == store::ForgeIdKind::kComment);
  CHECK(watch::IdSpaceOf(watch::ListedIdKind::kReview) == store::ForgeIdKind::kReview);
  names.clear();
  for (watch::HintSink sink : watch::kAllHintSinks) {
    names.emplace_back(watch::HintSinkName(sink));
    CHECK(watch::ParseHintSink(watch::HintSinkName(sink)) == sink);
  }
  CHECK(names == std::vector<std::string>{"stdout", "exec", "on-new"});
  for (const char* other : {"", "Review", "issue", "review-comment", "reviews", "on_new"}) {
    INFO(other);
    CHECK_FALSE(watch::ParsePostAs(other).has_value());
    CHECK_FALSE(watch::ParseListedIdKind(other).has_value());
    CHECK_FALSE(watch::ParseHintSink(other).has_value());
  }
}

TEST_CASE("watch units: answer headers - names without case - sendable ETags") {
  watch::HttpResponse answer;
  watch::AddHeaderLine("Etag: \"abc\"", &answer);
  watch::AddHeaderLine("X-Empty:", &answer);
  watch::AddHeaderLine("no colon here", &answer);
  watch::AddHeaderLine(": no name", &answer);
  CHECK(answer.headers.size() == 2);
  CHECK(answer.Header("ETag") == std::optional<std::string>("\"abc\""));
  CHECK(answer.Header("x-empty") == std::optional<std::string>(""));
  CHECK_FALSE(answer.Header("Location").has_value());
  CHECK(!watch::IsSendableEtag("\"a\"\r\nX-Evil: 1"));
  CHECK(watch::IsSendableEtag("W/\"a\""));
}

TEST_CASE("watch units: the transport's API roots - https - plain http only to loopback") {
  for (const char* host : {"localhost", "LocalHost", "127.0.0.1", "127.255.0.9", "::1", "[::1]"}) {
    INFO(host);
    CHECK(watch::IsLoopbackHost(host));
  }
  for (const char* host : {"", "128.0.0.1", "10.0.0.1", "localhost.example", "::2", "[::ffff:1]",
                           "0.0.0.0", "example.org"}) {
    INFO(host);
    CHECK_FALSE(watch::IsLoopbackHost(host));
  }
  const std::vector<std::pair<std::string, std::string>> accepted = {
      {"https://api.github.com", "api.github.com"},
      {"https://ghe.corp.example:8443/api/v3", "ghe.corp.example:8443"},
      {"http://127.0.0.1:3000/api/v1", "127.0.0.1:3000"},
      {"http://[::1]:3000/api/v1", "[::1]:3000"},
      {"http://localhost/api/v1", "localhost"}};
  for (const auto& [base, authority] : accepted) {
    INFO(base);
    auto checked = watch::CheckApiBase(base);
    REQUIRE(checked.ok());
    CHECK(*checked == authority);
  }
  for (const char* base :
       {"http://git.example.org/api/v1", "http://10.0.0.1:3000/api/v1", "ftp://127.0.0.1/x",
        "https://", "https://host:/x", "https://host:123456/x", "https://ho st/x",
        "https://host\r\nX: y/x", "git.example.org/api/v1", "https://user@host/x"}) {
    INFO(base);
    CHECK(watch::CheckApiBase(base).status().code() == Code::kUsage);
  }
  CHECK(watch::CheckApiBase("http://git.example.org/api/v1").status().message() ==
        "forge API http://git.example.org/api/v1: plain http goes only to a loopback host "
        "(localhost, 127.0.0.0/8, ::1); use https");
  // The API roots of the forges' endpoints.
  watch::ForgeEndpoint ghe{store::Forge::kGithub, "ghe.corp.example:8443", false, ""};
  CHECK(watch::ApiBase(ghe) == "https://ghe.corp.example:8443/api/v3");
  watch::ForgeEndpoint gitea{store::Forge::kGitea, "http://127.0.0.1:3000", false, ""};
  CHECK(watch::ApiBase(gitea) == "http://127.0.0.1:3000/api/v1");
}

TEST_CASE("watch units: hosts declared Gitea - with or without a port - no case") {
  const std::vector<std::string> declared = {"git.corp.example", "Tea.Example:3000"};
  CHECK(watch::IsDeclaredGitea(declared, "https://git.corp.example"));
  CHECK(watch::IsDeclaredGitea(declared, "https://GIT.corp.example:8443"));
  CHECK(watch::IsDeclaredGitea(declared, "https://tea.example:3000"));
  CHECK_FALSE(watch::IsDeclaredGitea(declared, "https://tea.example"));
  CHECK_FALSE(watch::IsDeclaredGitea(declared, "https://tea.example:3001"));
  CHECK_FALSE(watch::IsDeclaredGitea(declared, "https://git.corp.example.evil"));
  CHECK_FALSE(watch::IsDeclaredGitea({}, "https://git.corp.example"));
}

const char* kPull = R"({"number":7,"state":"closed","merged":true,"draft":false,"mergeable":null,
  "head":{"sha":"abc","ref":"topic"},"updated_at":"2026-08-21T18:00:00.5+08:00",
  "labels":[{"name":"z"},{"name":"a"}],"body":"ignored","user":{"login":"x"}})";

TEST_CASE("watch units: PR metadata from the REST shape and refusals with the JSON path") {
  auto meta = watch::ParsePrMeta(kPull, "pulls/7");
  REQUIRE(meta.ok());
  CHECK(meta->number == 7);
  CHECK(meta->state == watch::ForgePrState::kMerged);
  CHECK(!meta->mergeable.has_value());
  CHECK(meta->head_sha == "abc");
  CHECK(meta->head_ref == "topic");
  CHECK(meta->updated_at == "2026-08-21T10:00:00Z");
  CHECK(meta->labels == std::vector<std::string>{"a", "z"});
  // The stored bytes: the forge's two state names and `merged`.
  CHECK(watch::EncodePrMeta(*meta) ==
        R"({"number":7,"state":"closed","merged":true,"draft":false,"mergeable":null,)"
        R"("head":{"sha":"abc","ref":"topic"},"updated_at":"2026-08-21T10:00:00Z",)"
        R"("labels":[{"name":"a"},{"name":"z"}]})");
  auto round_trip = watch::DecodePrMeta(watch::EncodePrMeta(*meta));
  REQUIRE(round_trip.ok());
  CHECK(*round_trip == *meta);
  const std::map<std::string, std::string> refused = {
      {R"({"number":7)", "forge answer pulls/7: not JSON (syntax)"},
      {R"({"number":7,"number":8})", "forge answer pulls/7: not JSON (a duplicate key)"},
      {std::string(40, '[') + std::string(40, ']'),
       "forge answer pulls/7: not JSON (nested too deep)"},
      {R"({"number":7,"state":"weird","head":{"sha":"a","ref":"b"},"updated_at":"x"})",
       "forge answer: pulls/7 (forge): state: expected open or closed"},
      {R"({"number":7,"state":"merged","head":{"sha":"a","ref":"b"},"updated_at":"x"})",
       "forge answer: pulls/7 (forge): state: expected open or closed"},
      {R"({"number":7,"state":"open","head":{"sha":1,"ref":"b"},"updated_at":"x"})",
       "forge answer: pulls/7 (forge): head.sha: expected a string"},
      {R"({"number":7,"state":"open","head":{"sha":"a","ref":"b"},"updated_at":"yesterday"})",
       "forge answer: pulls/7 (forge): updated_at: not an RFC 3339 time"},
  };
  for (const auto& [json, message] : refused) {
    INFO(json);
    auto bad = watch::ParsePrMeta(json, "pulls/7");
    CHECK(bad.status().code() == Code::kCorrupted);
    CHECK(bad.status().message() == message);
  }
  auto ids =
      watch::ParseIdList(R"([{"id":5,"body":"[pr-daemon] x"},{"id":18446744073709551615}])", "c");
  REQUIRE(ids.ok());
  CHECK(*ids == std::vector<std::string>{"5", "18446744073709551615"});
  CHECK(watch::ParseIdList(R"([{"id":0}])", "c").status().code() == Code::kCorrupted);
  CHECK(watch::ParseIdList(R"({"id":1})", "c").status().code() == Code::kCorrupted);
}

TEST_CASE("watch units: forge resolution from the origin URL and tracker.json's remoteHost") {
  struct Case {
    std::string url, remote_host;
    store::Forge kind;
    std::string host, base, owner, repo;
  };
  const std::vector<Case> cases = {
      {"https://github.com/acme/webapp.git", "", store::Forge::kGithub, "", "", "acme", "webapp"},
      {"git@github.com:acme/webapp.git", "", store::Forge::kGithub, "", "", "acme", "webapp"},
      {"https://user:secret@git.naps.pt/team/tool", "", store::Forge::kGitea, "",
       "https://git.naps.pt", "team", "tool"},
      {"ssh://git@git.naps.pt:2222/team/tool.git", "", store::Forge::kGitea, "",
       "https://git.naps.pt", "team", "tool"},
      {"http://127.0.0.1:3000/o/r.git", "", store::Forge::kGitea, "", "http://127.0.0.1:3000", "o",
       "r"},
      {"https://ghe.corp.example/o/r.git", "github", store::Forge::kGithub, "ghe.corp.example", "",
       "o", "r"},
      {"https://ghe.corp.example:8443/o/r.git", "github", store::Forge::kGithub,
       "ghe.corp.example:8443", "", "o", "r"},
      {"git@ghe.corp.example:o/r.git", "github", store::Forge::kGithub, "ghe.corp.example", "", "o",
       "r"},
      {"http://localhost:3000/o/r.git", "", store::Forge::kGitea, "", "http://localhost:3000", "o",
       "r"},
      {"https://github.com/o/r.git", "gitea", store::Forge::kGitea, "", "https://github.com", "o",
       "r"},
  };
  for (const Case& c : cases) {
    INFO(c.url);
    auto forge = watch::ForgeFromRemote(c.url, c.remote_host);
    REQUIRE(forge.ok());
    CHECK(forge->kind == c.kind);
    CHECK(forge->host == c.host);
    CHECK(forge->base_url == c.base);
    CHECK(forge->owner == c.owner);
    CHECK(forge->repo == c.repo);
  }
  for (const char* bad : {"/srv/git/r.git", "file:///srv/o/r.git", "https://github.com/r",
                          "https://github.com/o/r%20x.git", "http://git.naps.pt/team/tool.git",
                          "http://10.1.2.3:3000/o/r.git"}) {
    INFO(bad);
    CHECK(watch::ForgeFromRemote(bad, "").status().code() == Code::kUsage);
  }
  const auto worktrees = watch::ParseWorktreeList(
      "worktree /src/main\nHEAD 1111\nbranch refs/heads/main\n\nworktree /src/wt\nHEAD 2222\n"
      "branch refs/heads/feature/x\n\nworktree /src/detached\nHEAD 3333\ndetached\n\n");
  REQUIRE(worktrees.size() == 3);
  CHECK(watch::OwningWorktree(worktrees, "feature/x") == std::optional<std::string>("/src/wt"));
  CHECK(!watch::OwningWorktree(worktrees, "").has_value());
  CHECK(!watch::OwningWorktree(worktrees, "other").has_value());
}

TEST_CASE("watch units: reasons from two readings") {
  PrMeta before;
  before.state = watch::ForgePrState::kOpen;
  before.mergeable = true;
  before.head_sha = "a";
  before.updated_at = "2026-01-01T00:00:00Z";
  PrMeta after = before;
  after.updated_at = "2026-01-01T00:00:01Z";
  using V = std::vector<std::string>;
  CHECK(watch::ChangeReasons(before, before, {}, {}).empty());
  CHECK(watch::ChangeReasons(before, after, {}, {}) == V{"comments"});  // an edit
  CHECK(watch::ChangeReasons(before, after, {"c:1"}, {}).empty());      // own reply
  CHECK(watch::ChangeReasons(before, after, {"c:1"}, {"c:1"}) == V{"comments"});
  after.labels = {"x"};
  CHECK(watch::ChangeReasons(before, after, {}, {}) == V{"state"});
  after.labels.clear();
  after.mergeable.reset();  // recomputing after a push: not a conflict
  after.head_sha = "b";
  CHECK(watch::ChangeReasons(before, after, {}, {}) == V{"ci"});
  after.mergeable = false;
  after.state = watch::ForgePrState::kClosed;
  after.draft = true;
  CHECK(watch::ChangeReasons(before, after, {"r:2"}, {"r:2"}) ==
        V{"comments", "ci", "conflicts", "state"});
}

// A clock the test moves; SleepUntil only records.
class FakeClock : public watch::Clock {
 public:
  int64_t now = 1'800'000'000;
  int64_t Now() override { return now; }
  void SleepUntil(int64_t when) override { now = std::max(now, when); }
};

// A forge in memory: one PR whose head the test moves; ETags by content.
class MemoryForge : public watch::ForgeClient {
 public:
  std::string sha = "aaa";
  int64_t version = 1;
  std::vector<int64_t> pr_requests;  // the clock's time at each request for the PR
  watch::Clock* clock = nullptr;

  Result<HttpResponse> Get(const std::string& path, const std::string& etag) override {
    HttpResponse out;
    out.status = 200;
    if (path == "repos/o/r/pulls/1") {
      pr_requests.push_back(clock->Now());
      const std::string tag = "\"v" + std::to_string(version) + "\"";
      out.headers.emplace_back("ETag", tag);
      if (etag == tag) {
        out.status = 304;
        return out;
      }
      out.body = R"({"number":1,"state":"open","head":{"sha":")" + sha +
                 R"(","ref":"topic"},"updated_at":"2027-01-01T00:00:0)" +
                 std::to_string(version % 10) + R"(Z"})";
      return out;
    }
    out.body = "[]";
    return out;
  }
};

TEST_CASE("watch units: the schedule backs off to 5 and 15 minutes and an event resets it") {
  TempDir tmp;
  FakeClock clock;
  auto* forge = new MemoryForge;
  forge->clock = &clock;
  std::unique_ptr<watch::ForgeClient> owned(forge);
  watch::Watcher watcher(clock, [&owned](const watch::RepoForge&) { return std::move(owned); }, {});
  watch::RepoWatch repo;
  repo.root = tmp.path();
  repo.common_dir = tmp.path();
  repo.forge.kind = store::Forge::kGithub;
  repo.forge.owner = "o";
  repo.forge.repo = "r";
  repo.prs = {1};
  std::vector<watch::RepoWatch> repos = {repo};
  const int64_t start = clock.now;
  std::vector<std::string> hints;
  auto run_until = [&](int64_t until) {
    while (clock.now < until) {
      auto report = watcher.RunCycle(repos);
      REQUIRE(report.ok());
      REQUIRE(report->errors.empty());
      for (const auto& h : report->hints) hints.push_back(h.hint.line);
      REQUIRE(watcher.MarkPrinted(*report).ok());
      clock.now += 15;
    }
  };
  run_until(start + 26 * 3600);
  // The gaps between requests: 30 s for the first hour, 5 min until a day passed, then 15 min.
  std::map<int64_t, int> gaps;
  int64_t quiet_hour = 0, quiet_day = 0;
  for (size_t i = 1; i < forge->pr_requests.size(); ++i) {
    const int64_t at = forge->pr_requests[i - 1] - start;
    const int64_t gap = forge->pr_requests[i] - forge->pr_requests[i - 1];
    const int64_t expected = at < 3600 ? 30 : at < 86400 ? 300 : 900;
    INFO("request after " << at << " s");
    REQUIRE(gap == expected);
    if (gap == 300) ++quiet_hour;
    if (gap == 900) ++quiet_day;
  }
  CHECK(forge->pr_requests.front() == start);
  CHECK(quiet_hour > 0);
  CHECK(quiet_day > 0);
  CHECK(hints.empty());
  // An event: the head moves; the hint comes at the next poll and the schedule is back to 30 s.
  forge->sha = "bbb";
  forge->version = 2;
  const size_t before = forge->pr_requests.size();
  run_until(clock.now + 1800);
  REQUIRE(hints.size() == 1);
  CHECK(hints[0] ==
        "[pr-daemon] github:o/r#1 reason=ci skill=review-pr updated=2027-01-01T00:00:02Z");
  REQUIRE(forge->pr_requests.size() > before + 3);
  CHECK(forge->pr_requests[before + 1] - forge->pr_requests[before] == 30);
  CHECK(forge->pr_requests[before + 2] - forge->pr_requests[before + 1] == 30);
  CHECK(watch::Backoff(1) == 30);
  CHECK(watch::Backoff(3) == 120);
  CHECK(watch::Backoff(50) == 900);
  HttpResponse limited;
  limited.headers = {{"X-RateLimit-Remaining", "0"}, {"X-RateLimit-Reset", "1000"}};
  CHECK(watch::RateLimitWait(limited, 400) == 600);
  limited.headers = {{"Retry-After", "99999"}};
  CHECK(watch::RateLimitWait(limited, 0) == 3600);
  limited.headers = {{"Retry-After", "-5"}};
  CHECK(watch::RateLimitWait(limited, 0) == 60);
}

}  // namespace
}  // namespace gentle::testing
