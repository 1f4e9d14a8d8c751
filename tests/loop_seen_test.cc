// review seen and review hint through the built CLI (docs/loop.md): exact outputs and exit codes,
// the ledger file's shape on disk, read paths that create nothing, refusals that change nothing,
// concurrent writers, crashes at every fault point, and fsck's findings.
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <set>

#include "loop/seen_schema.h"
#include "tests/support/crash_sweeps.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

const std::string kPr = "github:acme/webapp#47";
const std::string kTime = "2026-08-19T15:42:03Z";
const Env kFixed = {{"GENTLE_FIXED_TIME", kTime}};

std::string Ledger(const LifecycleRepo& repo) {
  return repo.common_dir() + "/gentle-ai/review-loop.sqlite";
}

RunResult Seen(const LifecycleRepo& repo, std::vector<std::string> args, bool json = true,
               const Env& env = kFixed) {
  args.insert(args.begin(), "seen");
  return repo.Review(args, env, json);
}

// Sets PRAGMA user_version of the ledger, keeping its -wal and -shm (as our writers do).
void SetUserVersion(const std::string& path, int version) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK);
  int persist = 1;
  sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
  const std::string sql = "PRAGMA user_version = " + std::to_string(version);
  CHECK(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
}

std::string ContextFile(const TempDir& dir, const std::vector<std::string>& ids) {
  Json context = {
      {"schema", "gentle-ai.review-context/v1"}, {"title", "t"}, {"comments", Json::array()}};
  for (const std::string& id : ids) {
    context["comments"].push_back({{"id", id}, {"author", "someone"}, {"body", "b"}});
  }
  const std::string path = dir.path() + "/context.json";
  WriteFile(path, context.dump());
  return path;
}

std::vector<std::string> ListedIds(const LifecycleRepo& repo, const std::string& pr = kPr) {
  RunResult r = Seen(repo, {"list", "--pr", pr});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  std::vector<std::string> ids;
  const Json list = r.Json();
  for (const auto& e : list["ids"]) ids.push_back(e["id"]);
  return ids;
}

TEST_CASE("seen: add - check - list - new answer exactly") {
  LifecycleRepo repo;
  TempDir dir;
  RunResult added = Seen(repo, {"add", "--pr", kPr, "--id", "101", "--id", "102"});
  CHECK(added.exit_code == 0);
  CHECK(added.out == R"({"schema":"gentle-ai.review-seen/v1","verb":"add","pr":")" + kPr +
                         R"(","kind":"handled","recorded_at":")" + kTime +
                         R"(","added":["101","102"],"already_seen":[]})"
                         "\n");
  RunResult posted =
      Seen(repo, {"add", "--pr", kPr, "--id", "102", "--id", "103", "--id", "103", "--posted"});
  CHECK(posted.out == R"({"schema":"gentle-ai.review-seen/v1","verb":"add","pr":")" + kPr +
                          R"(","kind":"posted","recorded_at":")" + kTime +
                          R"(","added":["103"],"already_seen":["102"]})"
                          "\n");
  RunResult yes = Seen(repo, {"check", "--pr", kPr, "--id", "102"});
  CHECK(yes.exit_code == 0);
  CHECK(yes.out == R"({"schema":"gentle-ai.review-seen/v1","verb":"check","pr":")" + kPr +
                       R"(","id":"102","seen":true,"kind":"handled","recorded_at":")" + kTime +
                       "\"}\n");
  RunResult no = Seen(repo, {"check", "--pr", kPr, "--id", "104"});
  CHECK(no.exit_code == 0);
  CHECK(no.out == R"({"schema":"gentle-ai.review-seen/v1","verb":"check","pr":")" + kPr +
                      R"(","id":"104","seen":false,"kind":null,"recorded_at":null})"
                      "\n");
  // Another PR of the same repository shares nothing.
  CHECK(Seen(repo, {"check", "--pr", "github:acme/webapp#48", "--id", "102"}).Json()["seen"] ==
        false);
  RunResult list = Seen(repo, {"list", "--pr", kPr});
  CHECK(list.out ==
        R"({"schema":"gentle-ai.review-seen/v1","verb":"list","pr":")" + kPr +
            R"(","baselined_at":null,"ids":[{"id":"101","kind":"handled","recorded_at":")" + kTime +
            R"("},{"id":"102","kind":"handled","recorded_at":")" + kTime +
            R"("},{"id":"103","kind":"posted","recorded_at":")" + kTime + "\"}]}\n");
  const std::string context = ContextFile(dir, {"105", "101", "104", "103", "106"});
  RunResult fresh = Seen(repo, {"new", "--pr", kPr, "--context", context});
  CHECK(fresh.exit_code == 0);
  CHECK(fresh.out == R"({"schema":"gentle-ai.review-seen/v1","verb":"new","pr":")" + kPr +
                         R"(","ids":["105","104","106"]})"
                         "\n");
  // Human output.
  CHECK(Seen(repo, {"new", "--pr", kPr, "--context", context}, false).out == "105\n104\n106\n");
  CHECK(Seen(repo, {"check", "--pr", kPr, "--id", "103"}, false).out ==
        "103  seen  posted  " + kTime + "\n");
  CHECK(Seen(repo, {"check", "--pr", kPr, "--id", "9"}, false).out == "9  not seen\n");
  CHECK(Seen(repo, {"list", "--pr", kPr}, false).out ==
        "101  handled  " + kTime + "\n102  handled  " + kTime + "\n103  posted  " + kTime + "\n");
  CHECK(Seen(repo, {"add", "--pr", kPr, "--id", "103", "--id", "107"}, false).out ==
        "seen " + kPr + ": 1 added (handled), 1 already seen\n");
}

TEST_CASE("seen: the ledger is a 0600 WAL database beside the store - never index.sqlite") {
  LifecycleRepo repo;
  REQUIRE(Seen(repo, {"add", "--pr", kPr, "--id", "1"}).exit_code == 0);
  struct stat st;
  REQUIRE(lstat(Ledger(repo).c_str(), &st) == 0);
  CHECK(S_ISREG(st.st_mode));
  CHECK((st.st_mode & 07777) == 0600);
  CHECK(Exists(Ledger(repo) + "-wal"));
  CHECK(Exists(Ledger(repo) + "-shm"));
  CHECK(!Exists(repo.store_root() + "/index.sqlite"));
  const std::string header = ReadFile(Ledger(repo)).substr(0, 20);
  CHECK(header.substr(0, 16) == std::string("SQLite format 3\0", 16));
  CHECK(header[18] == 2);  // WAL
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

TEST_CASE("seen: baseline runs once per PR - again only with --force - and forgets nothing") {
  LifecycleRepo repo;
  TempDir dir;
  WriteFile(dir.path() + "/ids", "11\n12\n13\n");
  RunResult first = Seen(repo, {"baseline", "--pr", kPr, "--ids-file", dir.path() + "/ids"});
  CHECK(first.exit_code == 0);
  CHECK(first.out == R"({"schema":"gentle-ai.review-seen/v1","verb":"baseline","pr":")" + kPr +
                         R"(","kind":"baseline","recorded_at":")" + kTime +
                         R"(","added":["11","12","13"],"already_seen":[],"forced":false})"
                         "\n");
  REQUIRE(Seen(repo, {"add", "--pr", kPr, "--id", "14", "--posted"}).exit_code == 0);
  const auto before = HashTree(repo.common_dir());
  RunResult again = Seen(repo, {"baseline", "--pr", kPr, "--id", "15"}, true,
                         {{"GENTLE_FIXED_TIME", "2026-08-20T00:00:00Z"}});
  CHECK(again.exit_code == 11);
  CHECK(again.Json()["error"]["code"] == "conflict");
  CHECK(again.Json()["error"]["details"]["baselined_at"] == kTime);
  CHECK(HashTree(repo.common_dir()) == before);
  RunResult forced = Seen(repo, {"baseline", "--pr", kPr, "--id", "13", "--id", "15", "--force"},
                          true, {{"GENTLE_FIXED_TIME", "2026-08-20T00:00:00Z"}});
  CHECK(forced.exit_code == 0);
  CHECK(forced.Json()["added"] == Json::array({"15"}));
  CHECK(forced.Json()["already_seen"] == Json::array({"13"}));
  CHECK(forced.Json()["forced"] == true);
  CHECK(ListedIds(repo) == std::vector<std::string>{"11", "12", "13", "14", "15"});
  const Json list = Seen(repo, {"list", "--pr", kPr}).Json();
  CHECK(list["baselined_at"] == "2026-08-20T00:00:00Z");
  CHECK(list["ids"][3]["kind"] == "posted");
  CHECK(list["ids"][4]["kind"] == "baseline");
  // A PR with no comments yet is baselined with no ids; another PR is baselined on its own.
  CHECK(Seen(repo, {"baseline", "--pr", "gitea:acme/webapp#47"}).exit_code == 0);
  CHECK(Seen(repo, {"baseline", "--pr", "gitea:acme/webapp#47"}).exit_code == 11);
  CHECK(Seen(repo, {"list", "--pr", "gitea:acme/webapp#47"}).Json()["baselined_at"] == kTime);
}

TEST_CASE("seen: read paths create nothing - a missing ledger means nothing seen") {
  LifecycleRepo repo;
  TempDir dir;
  const std::string context = ContextFile(dir, {"5", "6"});
  const auto before = HashTree(repo.common_dir());
  CHECK(Seen(repo, {"check", "--pr", kPr, "--id", "5"}).Json()["seen"] == false);
  CHECK(Seen(repo, {"list", "--pr", kPr}).Json()["ids"] == Json::array());
  CHECK(Seen(repo, {"new", "--pr", kPr, "--context", context}).Json()["ids"] ==
        Json::array({"5", "6"}));
  CHECK(repo.Review({"fsck"}).exit_code == 0);
  CHECK(HashTree(repo.common_dir()) == before);
  CHECK(!Exists(repo.common_dir() + "/gentle-ai"));
  // With a ledger: read paths leave every byte of the common dir as it was, side files included.
  REQUIRE(Seen(repo, {"add", "--pr", kPr, "--id", "5"}).exit_code == 0);
  const auto written = HashTree(repo.common_dir());
  CHECK(Seen(repo, {"check", "--pr", kPr, "--id", "5"}).Json()["seen"] == true);
  CHECK(Seen(repo, {"list", "--pr", kPr}).exit_code == 0);
  CHECK(Seen(repo, {"new", "--pr", kPr, "--context", context}).Json()["ids"] == Json::array({"6"}));
  CHECK(repo.Review({"fsck"}).exit_code == 0);
  CHECK(HashTree(repo.common_dir()) == written);
}

TEST_CASE("seen: bad keys - ids and files are usage and change nothing") {
  LifecycleRepo repo;
  TempDir dir;
  REQUIRE(Seen(repo, {"add", "--pr", kPr, "--id", "1"}).exit_code == 0);
  WriteFile(dir.path() + "/blank-line", "1\n\n2\n");
  WriteFile(dir.path() + "/crlf", "1\r\n");
  WriteFile(dir.path() + "/bad-context", R"({"schema":"gentle-ai.review-context/v1"})");
  const auto before = HashTree(repo.common_dir());
  const std::vector<std::vector<std::string>> refused = {
      {"add", "--pr", "github:acme/webapp", "--id", "1"},
      {"add", "--pr", "GitHub:acme/webapp#47", "--id", "1"},
      {"add", "--pr", "github:acme/..#47", "--id", "1"},
      {"add", "--pr", "github:acme/webapp#047", "--id", "1"},
      {"add", "--pr", kPr, "--id", "01"},
      {"add", "--pr", kPr, "--id", "abc"},
      {"add", "--pr", kPr, "--id", "123456789012345678901"},
      {"add", "--pr", kPr, "--id", "2", "--id", ""},
      {"add", "--pr", kPr, "--id", "review:0"},
      {"add", "--pr", kPr, "--id", "review:"},
      {"add", "--pr", kPr, "--id", "pull:3"},
      {"add", "--pr", kPr, "--id", "Review:3"},
      {"add", "--pr", kPr, "--id", ":3"},
      {"add", "--pr", kPr, "--id", "review:review:3"},
      {"check", "--pr", kPr, "--id", "review:01"},
      {"add", "--pr", kPr},
      {"add", "--pr", kPr, "--ids-file", dir.path() + "/blank-line"},
      {"add", "--pr", kPr, "--ids-file", dir.path() + "/crlf"},
      {"add", "--pr", kPr, "--ids-file", dir.path() + "/absent"},
      {"add", "--pr", kPr, "--id", "2", "--force"},
      {"baseline", "--pr", kPr, "--id", "2", "--posted"},
      {"add", "--id", "2"},
      {"check", "--pr", kPr},
      {"check", "--pr", kPr, "--id", "1", "--id", "2"},
      {"check", "--pr", kPr, "--id", "0"},
      {"list", "--pr", kPr, "--id", "1"},
      {"new", "--pr", kPr},
      {"new", "--pr", kPr, "--context", dir.path() + "/bad-context"},
      {"new", "--pr", kPr, "--context", dir.path() + "/absent"},
      {"frob", "--pr", kPr},
  };
  for (const auto& args : refused) {
    RunResult r = Seen(repo, args);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.Json()["error"]["code"] == "usage");
  }
  RunResult bad_context =
      Seen(repo, {"new", "--pr", kPr, "--context", dir.path() + "/bad-context"});
  CHECK(bad_context.Json()["error"]["details"]["json_path"] == "comments");
  CHECK(HashTree(repo.common_dir()) == before);
}

TEST_CASE("seen: a symlinked or non-regular ledger is corrupted for readers - writers - fsck") {
  LifecycleRepo repo;
  TempDir elsewhere;
  REQUIRE(Seen(repo, {"add", "--pr", kPr, "--id", "1"}).exit_code == 0);
  // A symlink to a real ledger elsewhere.
  const std::string moved = elsewhere.path() + "/moved.sqlite";
  REQUIRE(rename(Ledger(repo).c_str(), moved.c_str()) == 0);
  REQUIRE(symlink(moved.c_str(), Ledger(repo).c_str()) == 0);
  const auto before = HashTree(repo.common_dir());
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"check", "--pr", kPr, "--id", "1"},
                                             {"list", "--pr", kPr},
                                             {"add", "--pr", kPr, "--id", "2"},
                                             {"baseline", "--pr", kPr, "--id", "2"}}) {
    RunResult r = Seen(repo, args);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 7);
    CHECK(r.Json()["error"]["code"] == "corrupted");
  }
  RunResult fsck = repo.Review({"fsck"});
  CHECK(fsck.exit_code == 7);
  REQUIRE(fsck.Json()["findings"].size() == 1);
  CHECK(fsck.Json()["findings"][0]["code"] == "loop_corrupted");
  CHECK(HashTree(repo.common_dir()) == before);
  // A directory there.
  REQUIRE(unlink(Ledger(repo).c_str()) == 0);
  REQUIRE(mkdir(Ledger(repo).c_str(), 0700) == 0);
  CHECK(Seen(repo, {"check", "--pr", kPr, "--id", "1"}).exit_code == 7);
  CHECK(Seen(repo, {"add", "--pr", kPr, "--id", "1"}).exit_code == 7);
  CHECK(repo.Review({"fsck"}).Json()["findings"][0]["code"] == "loop_corrupted");
}

TEST_CASE("seen: a symlinked gentle-ai directory is corrupted - nothing written through it") {
  LifecycleRepo repo;
  TempDir elsewhere;
  REQUIRE(symlink(elsewhere.path().c_str(), (repo.common_dir() + "/gentle-ai").c_str()) == 0);
  CHECK(Seen(repo, {"add", "--pr", kPr, "--id", "1"}).exit_code == 7);
  CHECK(Seen(repo, {"check", "--pr", kPr, "--id", "1"}).exit_code == 7);
  CHECK(!Exists(elsewhere.path() + "/review-loop.sqlite"));
}

TEST_CASE("seen: a ledger from a newer schema or another database is corrupted - untouched") {
  LifecycleRepo repo;
  REQUIRE(Seen(repo, {"add", "--pr", kPr, "--id", "1"}).exit_code == 0);
  SetUserVersion(Ledger(repo), 4);
  const auto before = HashTree(repo.common_dir());
  RunResult check = Seen(repo, {"check", "--pr", kPr, "--id", "1"});
  CHECK(check.exit_code == 7);
  CHECK(check.Json()["error"]["details"]["schema_version"] == "4");
  CHECK(Seen(repo, {"add", "--pr", kPr, "--id", "2"}).exit_code == 7);
  RunResult fsck = repo.Review({"fsck"});
  CHECK(fsck.exit_code == 7);
  CHECK(fsck.Json()["findings"][0]["code"] == "loop_newer_schema");
  CHECK(HashTree(repo.common_dir()) == before);
  // Garbage at the path.
  LifecycleRepo other;
  REQUIRE(Seen(other, {"add", "--pr", kPr, "--id", "1"}).exit_code == 0);
  REQUIRE(unlink((Ledger(other) + "-wal").c_str()) == 0);
  REQUIRE(unlink((Ledger(other) + "-shm").c_str()) == 0);
  WriteFile(Ledger(other), std::string(4096, 'x'));
  REQUIRE(chmod(Ledger(other).c_str(), 0600) == 0);
  CHECK(Seen(other, {"check", "--pr", kPr, "--id", "1"}).exit_code == 7);
  CHECK(Seen(other, {"add", "--pr", kPr, "--id", "1"}).exit_code == 7);
  CHECK(other.Review({"fsck"}).Json()["findings"][0]["code"] == "loop_corrupted");
}

TEST_CASE("seen: fsck reports a ledger whose mode is not 0600 - or whose side files are gone") {
  LifecycleRepo repo;
  REQUIRE(Seen(repo, {"add", "--pr", kPr, "--id", "1"}).exit_code == 0);
  REQUIRE(chmod(Ledger(repo).c_str(), 0644) == 0);
  RunResult fsck = repo.Review({"fsck"});
  CHECK(fsck.exit_code == 7);
  REQUIRE(fsck.Json()["findings"].size() == 1);
  CHECK(fsck.Json()["findings"][0]["code"] == "loop_file_mode");
  CHECK(fsck.Json()["findings"][0]["message"] == "mode 0644, expected 0600");
  REQUIRE(chmod(Ledger(repo).c_str(), 0600) == 0);
  REQUIRE(unlink((Ledger(repo) + "-shm").c_str()) == 0);
  const auto before = HashTree(repo.common_dir());
  CHECK(repo.Review({"fsck"}).Json()["findings"][0]["code"] == "loop_interrupted");
  CHECK(Seen(repo, {"check", "--pr", kPr, "--id", "1"}).exit_code == 7);
  CHECK(HashTree(repo.common_dir()) == before);
  // The next writer restores the side files; every reader answers again.
  REQUIRE(Seen(repo, {"add", "--pr", kPr, "--id", "2"}).exit_code == 0);
  CHECK(ListedIds(repo) == std::vector<std::string>{"1", "2"});
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

TEST_CASE("seen: store reset leaves the seen ledger alone") {
  LifecycleRepo repo;
  repo.StartNew();
  REQUIRE(Seen(repo, {"add", "--pr", kPr, "--id", "1"}).exit_code == 0);
  RunResult reset = repo.Review({"store", "reset", "--yes"});
  INFO(reset.out << reset.err);
  REQUIRE(reset.exit_code == 0);
  CHECK(ListedIds(repo) == std::vector<std::string>{"1"});
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

TEST_CASE("seen: 8 processes adding at once all land") {
  LifecycleRepo repo;
  std::vector<pid_t> pids;
  for (int i = 0; i < 8; ++i) {
    std::vector<std::string> words = {"seen", "add", "--pr", kPr, "--id", std::to_string(1000 + i),
                                      "--id", "7"};
    if (i % 2) words.push_back("--posted");
    const std::vector<std::string> args = repo.ReviewArgs(words);
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {  // no Catch macros in the child
      _exit(GentleAi(args, "", {{"GENTLE_LOCK_TIMEOUT_MS", "20000"}}).exit_code);
    }
    pids.push_back(pid);
  }
  std::vector<int> codes;
  for (pid_t pid : pids) {
    int status = 0;
    waitpid(pid, &status, 0);
    codes.push_back(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  CHECK(codes == std::vector<int>(8, 0));
  const std::vector<std::string> ids = ListedIds(repo);
  CHECK(ids.size() == 9);
  CHECK(std::set<std::string>(ids.begin(), ids.end()) ==
        std::set<std::string>{"7", "1000", "1001", "1002", "1003", "1004", "1005", "1006", "1007"});
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

// The seen ledger's fault-point sweep: each writing verb on a ledger that holds an id, and `add`
// as the ledger's first writer (which creates and migrates the file).
struct SeenSweepCase {
  std::string verb;
  bool first;
};
const std::vector<SeenSweepCase> kSeenSweep = {{"add", false}, {"baseline", false}, {"add", true}};

TEST_CASE("seen: a crash at each fault point leaves the ledger before or after - fsck clean") {
  for (const auto& [verb, first] : kSeenSweep) {
    INFO("seen " << verb << (first ? " (first writer)" : ""));
    LifecycleRepo probe;
    std::vector<std::string> args = {"seen", verb, "--pr", kPr, "--id", "2", "--id", "3"};
    if (!first) REQUIRE(Seen(probe, {"add", "--pr", kPr, "--id", "1"}).exit_code == 0);
    const std::vector<std::string> points = TraceFaultPoints(probe, args);
    // A new file is migrated (version 0 to the current one) before anything is recorded.
    std::vector<std::string> expected = {"seen:opened", "seen:rows-written", "seen:committed"};
    if (first) expected.insert(expected.begin(), "seen:migrated");
    CHECK(points == expected);
    for (const std::string& point : points) {
      INFO(verb << " killed at " << point);
      LifecycleRepo repo;
      if (!first) REQUIRE(Seen(repo, {"add", "--pr", kPr, "--id", "1"}).exit_code == 0);
      RunResult killed = repo.Review(args, {{"GENTLE_FAULT_POINT", point}});
      CHECK(killed.exit_code == 86);
      const std::vector<std::string> before =
          first ? std::vector<std::string>{} : std::vector<std::string>{"1"};
      std::vector<std::string> after = before;
      after.push_back("2");
      after.push_back("3");
      const std::vector<std::string> now = ListedIds(repo);
      CHECK((now == (point == "seen:committed" ? after : before)));
      RunResult fsck = repo.Review({"fsck"});
      INFO(fsck.out);
      CHECK(fsck.exit_code == 0);
      // The retry completes (a committed baseline is a conflict: it had taken effect).
      RunResult retry = repo.Review(args);
      const bool baselined = verb == "baseline" && point == "seen:committed";
      CHECK(retry.exit_code == (baselined ? 11 : 0));
      CHECK(ListedIds(repo) == after);
      CHECK(repo.Review({"fsck"}).exit_code == 0);
    }
  }
}

TEST_CASE("seen: review ids are their own id space - new reports a new review body") {
  LifecycleRepo repo;
  TempDir dir;
  // A human's CHANGES_REQUESTED review 11 beside issue comment 11: one number, two ids.
  const std::string context = dir.path() + "/context.json";
  WriteFile(context, R"({"schema":"gentle-ai.review-context/v1","comments":[{"id":"11"}],)"
                     R"("verdicts":[{"id":"11","state":"CHANGES_REQUESTED"},{"id":"12"}]})");
  RunResult fresh = Seen(repo, {"new", "--pr", kPr, "--context", context});
  INFO(fresh.err);
  CHECK(fresh.out == R"({"schema":"gentle-ai.review-seen/v1","verb":"new","pr":")" + kPr +
                         R"(","ids":["11","review:11","review:12"]})"
                         "\n");
  RunResult posted = Seen(repo, {"add", "--pr", kPr, "--id", "review:11", "--posted"});
  CHECK(posted.Json()["added"] == Json::array({"review:11"}));
  CHECK(Seen(repo, {"new", "--pr", kPr, "--context", context}, false).out == "11\nreview:12\n");
  CHECK(Seen(repo, {"check", "--pr", kPr, "--id", "review:11"}).out ==
        R"({"schema":"gentle-ai.review-seen/v1","verb":"check","pr":")" + kPr +
            R"(","id":"review:11","seen":true,"kind":"posted","recorded_at":")" + kTime + "\"}\n");
  // Comment 11 is another id; comment:N is N.
  CHECK(Seen(repo, {"check", "--pr", kPr, "--id", "11"}).Json()["seen"] == false);
  CHECK(Seen(repo, {"check", "--pr", kPr, "--id", "comment:11"}).Json()["id"] == "11");
  WriteFile(dir.path() + "/ids", "review:12\ncomment:11\nreview:11\n");
  RunResult from_file = Seen(repo, {"add", "--pr", kPr, "--ids-file", dir.path() + "/ids"});
  CHECK(from_file.Json()["added"] == Json::array({"review:12", "11"}));
  CHECK(from_file.Json()["already_seen"] == Json::array({"review:11"}));
  CHECK(ListedIds(repo) == std::vector<std::string>{"review:11", "review:12", "11"});
  CHECK(Seen(repo, {"new", "--pr", kPr, "--context", context}, false).out.empty());
  // The GitHub import's reviews are review ids: review 2002 (review-bot's round 1) is new.
  RunResult imported =
      Seen(repo, {"new", "--pr", kPr, "--context",
                  std::string(GENTLE_FIXTURES_DIR) + "/forge/github/expected-context.json"});
  const Json ids = imported.Json()["ids"];
  CHECK(std::find(ids.begin(), ids.end(), "review:2002") != ids.end());
  CHECK(std::find(ids.begin(), ids.end(), "1001") != ids.end());
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

// A ledger exactly as the release before id kinds wrote it: schema version 1; with `version2`,
// as the release before posted ids named their lineage wrote it (the version-2 step applied).
void WriteVersion1Ledger(const LifecycleRepo& repo, bool version2 = false) {
  REQUIRE((mkdir((repo.common_dir() + "/gentle-ai").c_str(), 0755) == 0 || errno == EEXIST));
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(Ledger(repo).c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                          nullptr) == SQLITE_OK);
  int persist = 1;
  sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
  // The version-1 schema is the first step of the migration chain (loop/seen_schema.h).
  const std::string sql =
      std::string("PRAGMA journal_mode = WAL; BEGIN;") + loop::kSeenMigrateTo1 +
      R"sql(
INSERT INTO baselines VALUES ('github:acme/webapp#47', '2026-01-01T00:00:00Z');
INSERT INTO seen (pr, comment_id, kind, recorded_at) VALUES
  ('github:acme/webapp#47', '5', 'baseline', '2026-01-01T00:00:00Z'),
  ('github:acme/webapp#48', '5', 'handled', '2026-01-02T00:00:00Z'),
  ('github:acme/webapp#47', '7', 'posted', '2026-01-03T00:00:00Z');
COMMIT;
PRAGMA user_version = 1;
)sql" +
      (version2 ? std::string("BEGIN;") + loop::kSeenMigrateTo2 + "COMMIT; PRAGMA user_version = 2;"
                : std::string());
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  INFO((error ? error : ""));
  REQUIRE(rc == SQLITE_OK);
  sqlite3_close(db);
  for (const char* suffix : {"", "-wal", "-shm"}) {
    REQUIRE(chmod((Ledger(repo) + suffix).c_str(), 0600) == 0);
  }
}

int UserVersion(const std::string& path) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(stmt) == SQLITE_ROW);
  const int version = sqlite3_column_int(stmt, 0);
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return version;
}

TEST_CASE("seen: a version-1 ledger is read as it is - its first writer migrates every id") {
  LifecycleRepo repo;
  TempDir dir;
  WriteVersion1Ledger(repo);
  REQUIRE(UserVersion(Ledger(repo)) == 1);
  const std::string v1_list =
      R"({"schema":"gentle-ai.review-seen/v1","verb":"list","pr":")" + kPr +
      R"(","baselined_at":"2026-01-01T00:00:00Z","ids":[)"
      R"({"id":"5","kind":"baseline","recorded_at":"2026-01-01T00:00:00Z"},)"
      R"({"id":"7","kind":"posted","recorded_at":"2026-01-03T00:00:00Z"}]})"
      "\n";
  // Readers read it without writing a byte.
  const auto before = HashTree(repo.common_dir());
  CHECK(Seen(repo, {"list", "--pr", kPr}).out == v1_list);
  CHECK(Seen(repo, {"check", "--pr", kPr, "--id", "5"}).Json()["kind"] == "baseline");
  CHECK(Seen(repo, {"check", "--pr", kPr, "--id", "review:5"}).Json()["seen"] == false);
  WriteFile(dir.path() + "/context.json",
            R"({"schema":"gentle-ai.review-context/v1","comments":[{"id":"5"},{"id":"9"}],)"
            R"("verdicts":[{"id":"5"}]})");
  CHECK(Seen(repo, {"new", "--pr", kPr, "--context", dir.path() + "/context.json"}).Json()["ids"] ==
        Json::array({"9", "review:5"}));
  RunResult fsck = repo.Review({"fsck"});
  INFO(fsck.out);
  CHECK(fsck.exit_code == 0);
  CHECK(HashTree(repo.common_dir()) == before);

  // A writer killed inside the migration leaves version 1 with every id.
  const std::vector<std::string> add = {"seen", "add", "--pr", kPr, "--id", "review:5"};
  RunResult killed = repo.Review(add, {{"GENTLE_FAULT_POINT", "seen:migrated"}});
  CHECK(killed.exit_code == 86);
  CHECK(UserVersion(Ledger(repo)) == 1);
  CHECK(Seen(repo, {"list", "--pr", kPr}).out == v1_list);

  // The first writer migrates in one transaction: each id with its seq, kind and time.
  RunResult added = Seen(repo, {"add", "--pr", kPr, "--id", "review:5", "--id", "5"});
  INFO(added.err);
  CHECK(added.Json()["added"] == Json::array({"review:5"}));
  CHECK(added.Json()["already_seen"] == Json::array({"5"}));
  CHECK(UserVersion(Ledger(repo)) == 3);
  CHECK(Seen(repo, {"list", "--pr", kPr}).out ==
        R"({"schema":"gentle-ai.review-seen/v1","verb":"list","pr":")" + kPr +
            R"(","baselined_at":"2026-01-01T00:00:00Z","ids":[)"
            R"({"id":"5","kind":"baseline","recorded_at":"2026-01-01T00:00:00Z"},)"
            R"({"id":"7","kind":"posted","recorded_at":"2026-01-03T00:00:00Z"},)"
            R"({"id":"review:5","kind":"handled","recorded_at":")" +
            kTime + "\"}]}\n");
  CHECK(ListedIds(repo, "github:acme/webapp#48") == std::vector<std::string>{"5"});
  CHECK(Seen(repo, {"baseline", "--pr", kPr}).exit_code == 11);  // still baselined
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

TEST_CASE("seen: a version-2 ledger is read as it is - its first writer adds the lineage column") {
  LifecycleRepo repo;
  WriteVersion1Ledger(repo, /*version2=*/true);
  REQUIRE(UserVersion(Ledger(repo)) == 2);
  const std::string list = R"({"schema":"gentle-ai.review-seen/v1","verb":"list","pr":")" + kPr +
                           R"(","baselined_at":"2026-01-01T00:00:00Z","ids":[)"
                           R"({"id":"5","kind":"baseline","recorded_at":"2026-01-01T00:00:00Z"},)"
                           R"({"id":"7","kind":"posted","recorded_at":"2026-01-03T00:00:00Z"}]})"
                           "\n";
  const auto before = HashTree(repo.common_dir());
  CHECK(Seen(repo, {"list", "--pr", kPr}).out == list);
  CHECK(repo.Review({"fsck"}).exit_code == 0);
  CHECK(HashTree(repo.common_dir()) == before);
  // A writer killed inside the migration leaves version 2 with every id.
  const std::vector<std::string> add = {
      "seen", "add", "--pr", kPr, "--posted", "--lineage", "review-00000000000000a1", "--id", "8"};
  RunResult killed = repo.Review(add, {{"GENTLE_FAULT_POINT", "seen:migrated"}});
  CHECK(killed.exit_code == 86);
  CHECK(UserVersion(Ledger(repo)) == 2);
  CHECK(Seen(repo, {"list", "--pr", kPr}).out == list);
  // The first writer adds the column in place: every row kept, none naming a lineage.
  RunResult added = Seen(
      repo, {"add", "--pr", kPr, "--posted", "--lineage", "review-00000000000000a1", "--id", "8"});
  INFO(added.err);
  CHECK(added.exit_code == 0);
  CHECK(UserVersion(Ledger(repo)) == 3);
  CHECK(ListedIds(repo, kPr) == std::vector<std::string>{"5", "7", "8"});
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(Ledger(repo).c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "SELECT id, ifnull(lineage, '-') FROM seen ORDER BY seq", -1,
                             &stmt, nullptr) == SQLITE_OK);
  std::vector<std::string> rows;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    rows.push_back(std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0))) + " " +
                   reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1)));
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  CHECK(rows == std::vector<std::string>{"5 -", "5 -", "7 -", "8 review-00000000000000a1"});
  CHECK(repo.Review({"fsck"}).exit_code == 0);
  // --lineage names the lineage of posted ids only, and must be a lineage id.
  const auto unchanged = HashTree(repo.common_dir());
  RunResult handled =
      Seen(repo, {"add", "--pr", kPr, "--lineage", "review-00000000000000a1", "--id", "9"});
  CHECK(handled.exit_code == 2);
  CHECK(handled.Json()["error"]["code"] == "usage");
  RunResult bad =
      Seen(repo, {"add", "--pr", kPr, "--posted", "--lineage", "Not_A_Lineage", "--id", "9"});
  CHECK(bad.exit_code == 2);
  CHECK(HashTree(repo.common_dir()) == unchanged);
}

TEST_CASE("hint parse: the JSON of a hint line - refusals are usage and create nothing") {
  TempDir dir;
  const auto before = HashTree(dir.path());
  RunResult ok = GentleAi({"review", "hint", "parse",
                           "[pr-daemon] github:acme/webapp#47 reason=comments,ci skill=land "
                           "updated=2026-08-19T15:42:03Z"},
                          dir.path());
  CHECK(ok.exit_code == 0);
  CHECK(ok.out ==
        R"({"schema":"gentle-ai.review-hint/v1","forge":"github","owner":"acme","repo":"webapp",)"
        R"("number":47,"pr":"github:acme/webapp#47","reasons":["comments","ci"],"skill":"land",)"
        R"("updated":"2026-08-19T15:42:03Z"})"
        "\n");
  CHECK(ok.err.empty());
  RunResult forged = GentleAi({"review", "hint", "parse",
                               "[pr-daemon] github:acme/webapp#47 reason=comments skill=shell "
                               "updated=2026-08-19T15:42:03Z",
                               "--json"},
                              dir.path());
  CHECK(forged.exit_code == 2);
  CHECK(forged.out == R"({"schema":"gentle-ai.review-error/v1","error":{"code":"usage","message":)"
                      R"("hint: skill must be land or review-pr","lineage":null,"details":{}}})"
                      "\n");
  RunResult newline = GentleAi({"review", "hint", "parse",
                                "[pr-daemon] github:acme/webapp#47 reason=comments skill=land "
                                "updated=2026-08-19T15:42:03Z\n"},
                               dir.path());
  CHECK(newline.exit_code == 2);
  CHECK(newline.err ==
        "gentle-ai: usage: hint: a control character (newline, CR, tab...) is not allowed\n");
  CHECK(GentleAi({"review", "hint", "parse"}, dir.path()).exit_code == 2);
  CHECK(
      GentleAi({"review", "hint", "parse", "[pr-daemon]", "github:a/b#1"}, dir.path()).exit_code ==
      2);
  CHECK(HashTree(dir.path()) == before);
}

}  // namespace

std::vector<std::string> SeenFaultPointSweepOperations() {
  std::vector<std::string> names;
  for (const SeenSweepCase& c : kSeenSweep) {
    const std::string name = "seen " + c.verb;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

}  // namespace gentle::testing
