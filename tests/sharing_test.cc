// review push / review fetch and the read verbs on fetched-only lineages (docs/format.md),
// through the built CLI against a real bare origin over file://: a clone approves and pushes, a
// fresh clone fetches and every read verb answers with `source`, byte-identical to git's own diff
// and without writing a byte; pushes are never forced; remote names are checked before git runs;
// a forged fetched history is `corrupted` everywhere; a history ahead of its record is not pushed.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "export/git_flags.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_env.h"
#include "tests/support/git_repo.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

// gentle-ai review <args> --cwd <dir> --json.
RunResult ReviewIn(const std::string& dir, std::vector<std::string> args, const Env& env = {}) {
  args.insert(args.begin(), "review");
  args.insert(args.end(), {"--cwd", dir, "--json"});
  return GentleAi(args, dir, env);
}

// `git <args>` in `dir` with `input` on stdin; fails the test unless git exits 0. Returns stdout.
std::string GitIn(const std::string& dir, const std::vector<std::string>& args,
                  const std::string& input = "") {
  std::vector<std::string> argv = {"git"};
  argv.insert(argv.end(), args.begin(), args.end());
  RunResult r = Run(argv, dir, GitEnv(), input);
  INFO("git " << args[0] << ": " << r.out << r.err);
  REQUIRE(r.exit_code == 0);
  return r.out;
}

std::string HistoryRef(const std::string& lineage) { return "refs/gentle-ai/reviews/" + lineage; }

std::string FetchedRef(const std::string& remote, const std::string& lineage) {
  return "refs/gentle-ai/remotes/" + remote + "/reviews/" + lineage;
}

// An error envelope's code, after checking the exit code.
std::string ErrorCode(const RunResult& r, int exit_code) {
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == exit_code);
  return r.Json()["error"]["code"];
}

// A clone A (LifecycleRepo) whose `origin` is a bare repository over file://, with main pushed.
struct Sharing {
  TempDir tmp;
  LifecycleRepo a;
  std::string origin;
  Sharing() : origin(tmp.path() + "/origin.git") {
    GitIn(tmp.path(), {"init", "-q", "--bare", origin});
    REQUIRE(a.Git({"remote", "add", "origin", "file://" + origin}).exit_code == 0);
    REQUIRE(a.Git({"push", "-q", "origin", "HEAD:refs/heads/main"}).exit_code == 0);
  }
  // A fresh clone of origin at tmp/<name>.
  std::string Clone(const std::string& name) {
    const std::string dir = tmp.path() + "/" + name;
    GitIn(tmp.path(), {"clone", "-q", "-b", "main", "file://" + origin, dir});
    return dir;
  }
  std::string Tip(const std::string& dir, const std::string& ref) {
    return Trim(GitIn(dir, {"rev-parse", "--verify", ref}));
  }
};

// Approves a lineage in A, commits its candidate on main (so HEAD's tree is the reviewed tree) and
// pushes main and the lineage's history.
LifecycleRepo::Approved ApproveCommitAndPush(Sharing& s) {
  LifecycleRepo::Approved approved = s.a.StartApproved();
  REQUIRE(s.a.Git({"add", "-A"}).exit_code == 0);
  REQUIRE(s.a.Git({"commit", "-q", "-m", "reviewed change"}).exit_code == 0);
  REQUIRE(s.a.Git({"push", "-q", "origin", "HEAD:refs/heads/main"}).exit_code == 0);
  RunResult push = s.a.Review({"push"});
  INFO(push.out << push.err);
  REQUIRE(push.exit_code == 0);
  const std::string tip = s.Tip(s.a.root(), HistoryRef(approved.lineage));
  CHECK(push.out ==
        "{\"schema\":\"gentle-ai.review-push/v1\",\"remote\":\"origin\",\"lineages\":"
        "[{\"lineage\":\"" +
            approved.lineage + "\",\"tip\":\"" + tip + "\",\"result\":\"created\"}]}\n");
  CHECK(s.Tip(s.origin, HistoryRef(approved.lineage)) == tip);
  return approved;
}

// Rewrites the tip commit of `ref` in the repository `dir` with review-state.json's bytes edited
// (the revision no longer binds them), same parent and message, and points `ref` at it.
void ForgeTipRecord(const std::string& dir, const std::string& ref) {
  const std::string tip = Trim(GitIn(dir, {"rev-parse", "--verify", ref}));
  std::string listing = GitIn(dir, {"ls-tree", tip});
  const std::string name = "\treview-state.json\n";
  const size_t at = listing.find(name);
  REQUIRE(at != std::string::npos);
  const size_t line =
      listing.rfind('\n', at) == std::string::npos ? 0 : listing.rfind('\n', at) + 1;
  const std::string blob = listing.substr(at - 40, 40);
  std::string record = GitIn(dir, {"cat-file", "blob", blob});
  const size_t state = record.find("\"approved\"");
  REQUIRE(state != std::string::npos);
  record.replace(state, 10, "\"reviewing\"");
  const std::string forged_blob = Trim(GitIn(dir, {"hash-object", "-w", "--stdin"}, record));
  listing.replace(line, at + name.size() - line, "100644 blob " + forged_blob + name);
  const std::string tree = Trim(GitIn(dir, {"mktree"}, listing));
  const std::string parent = Trim(GitIn(dir, {"rev-parse", "--verify", tip + "^"}));
  const std::string message = GitIn(dir, {"log", "-1", "--format=%B", tip});
  const std::string forged =
      Trim(GitIn(dir, {"commit-tree", tree, "-p", parent, "-F", "-"}, message));
  GitIn(dir, {"update-ref", ref, forged});
}

TEST_CASE("sharing a fresh clone fetches an approval and every read verb answers with source") {
  Sharing s;
  const LifecycleRepo::Approved approved = ApproveCommitAndPush(s);
  const std::string& lineage = approved.lineage;
  const std::string tip = s.Tip(s.a.root(), HistoryRef(lineage));
  const std::string b = s.Clone("b");

  RunResult fetch = ReviewIn(b, {"fetch"});
  INFO(fetch.out << fetch.err);
  REQUIRE(fetch.exit_code == 0);
  CHECK(fetch.out ==
        "{\"schema\":\"gentle-ai.review-fetch/v1\",\"remote\":\"origin\",\"lineages\":[{"
        "\"lineage\":\"" +
            lineage + "\",\"tip\":\"" + tip +
            "\",\"state\":\"approved\",\"terminal\":null,\"verified\":true}]}\n");
  CHECK(s.Tip(b, FetchedRef("origin", lineage)) == tip);
  CHECK(GitRun(b, {"rev-parse", "--verify", "-q", HistoryRef(lineage)}).exit_code != 0);

  const auto before = HashTree(b + "/.git");
  RunResult status = ReviewIn(b, {"status", "--lineage", lineage});
  INFO(status.out << status.err);
  REQUIRE(status.exit_code == 0);
  const nlohmann::json entry = status.Json()["lineages"][0];
  CHECK(entry["lineage"] == lineage);
  CHECK(entry["state"] == "approved");
  CHECK(entry["source"] == "origin");
  CHECK(entry["revision"] == approved.revision);

  RunResult list = ReviewIn(b, {"list"});
  INFO(list.out << list.err);
  REQUIRE(list.exit_code == 0);
  const nlohmann::json listed = list.Json()["lineages"];
  REQUIRE(listed.size() == 1);
  CHECK(listed[0]["lineage"] == lineage);
  CHECK(listed[0]["state"] == "approved");
  CHECK(listed[0]["source"] == "origin");

  RunResult envelope = ReviewIn(b, {"export-context", "--lineage", lineage});
  INFO(envelope.out << envelope.err);
  REQUIRE(envelope.exit_code == 0);
  const nlohmann::json env = envelope.Json();
  CHECK(env["source"] == "origin");
  CHECK(env["state"] == "approved");
  RunResult raw = GentleAi({"review", "export-context", "--lineage", lineage, "--cwd", b}, b);
  REQUIRE(raw.exit_code == 0);
  std::vector<std::string> oracle =
      exporter::OracleArgv(env["snapshot"]["base_tree"], env["snapshot"]["candidate_tree"]);
  oracle.erase(oracle.begin());
  const RunResult expected = GitRun(b, oracle, {{"GIT_ATTR_NOSYSTEM", "1"}});
  REQUIRE(expected.exit_code == 0);
  CHECK(!expected.out.empty());
  CHECK(raw.out == expected.out);

  RunResult verify = ReviewIn(b, {"verify", "--lineage", lineage, "--against", "HEAD"});
  INFO(verify.out << verify.err);
  REQUIRE(verify.exit_code == 0);
  CHECK(verify.Json()["source"] == "origin");
  CHECK(verify.Json()["consumed"] == false);
  CHECK(verify.Json()["state"] == "approved");
  CHECK(HashTree(b + "/.git") == before);

  SECTION("a burned approval fetched again verifies as consumed; the other reads say consumed") {
    REQUIRE(s.a.Review({"burn", "--lineage", lineage, "--token", approved.token,
                        "--expected-revision", approved.revision})
                .exit_code == 0);
    RunResult push = s.a.Review({"push", "--lineage", lineage});
    INFO(push.out << push.err);
    REQUIRE(push.exit_code == 0);
    CHECK(push.Json()["lineages"][0]["result"] == "updated");
    RunResult again = ReviewIn(b, {"fetch", "--remote", "origin"});
    REQUIRE(again.exit_code == 0);
    CHECK(again.Json()["lineages"][0]["state"] == "consumed");
    CHECK(again.Json()["lineages"][0]["terminal"] == "burn");
    const auto fetched = HashTree(b + "/.git");
    RunResult consumed = ReviewIn(b, {"verify", "--lineage", lineage, "--against", "HEAD"});
    INFO(consumed.out << consumed.err);
    REQUIRE(consumed.exit_code == 0);
    CHECK(consumed.Json()["consumed"] == true);
    CHECK(consumed.Json()["state"] == "approved");
    CHECK(consumed.Json()["source"] == "origin");
    RunResult st = ReviewIn(b, {"status", "--lineage", lineage});
    CHECK(ErrorCode(st, 4) == "consumed");
    CHECK(st.Json()["error"]["details"]["source"] == "origin");
    CHECK(ErrorCode(ReviewIn(b, {"export-context", "--lineage", lineage}), 4) == "consumed");
    CHECK(ErrorCode(ReviewIn(b, {"verify", "--lineage", lineage}), 4) == "consumed");
    RunResult l = ReviewIn(b, {"list"});
    REQUIRE(l.exit_code == 0);
    CHECK(l.Json()["lineages"][0]["state"] == "consumed");
    CHECK(l.Json()["lineages"][0]["source"] == "origin");
    CHECK(HashTree(b + "/.git") == fetched);
    // Imported, and the fetched ref gone: the store's tombstone and the local burn commit answer,
    // still with the remote as source (store/provenance.h).
    RunResult imported = ReviewIn(b, {"import", "--lineage", lineage});
    INFO(imported.out << imported.err);
    REQUIRE(imported.exit_code == 0);
    GitIn(b, {"update-ref", "-d", FetchedRef("origin", lineage)});
    RunResult local = ReviewIn(b, {"verify", "--lineage", lineage, "--against", "HEAD"});
    INFO(local.out << local.err);
    REQUIRE(local.exit_code == 0);
    CHECK(local.Json()["consumed"] == true);
    CHECK(local.Json()["source"] == "origin");
    RunResult refused = ReviewIn(b, {"status", "--lineage", lineage});
    CHECK(ErrorCode(refused, 4) == "consumed");
    CHECK(refused.Json()["error"]["details"]["source"] == "origin");
    CHECK(refused.Json()["error"]["details"]["tombstone"].is_string());
  }
  SECTION("a local record wins over the fetched history") {
    RunResult fetched_here = s.a.Review({"fetch"});
    REQUIRE(fetched_here.exit_code == 0);
    RunResult local = s.a.Review({"status", "--lineage", lineage});
    REQUIRE(local.exit_code == 0);
    CHECK(local.Json()["lineages"][0]["source"].is_null());
    RunResult l = s.a.Review({"list"});
    REQUIRE(l.exit_code == 0);
    REQUIRE(l.Json()["lineages"].size() == 1);
    CHECK(l.Json()["lineages"][0]["source"].is_null());
    RunResult e = s.a.Review({"export-context", "--lineage", lineage});
    REQUIRE(e.exit_code == 0);
    CHECK(e.Json()["source"].is_null());
  }
}

TEST_CASE("sharing two remotes holding different tips of a lineage are ambiguous") {
  Sharing s;
  const std::string mirror = s.tmp.path() + "/mirror.git";
  GitIn(s.tmp.path(), {"init", "-q", "--bare", mirror});
  REQUIRE(s.a.Git({"remote", "add", "mirror", "file://" + mirror}).exit_code == 0);
  const std::string lineage = s.a.StartNew()["lineage"];
  REQUIRE(s.a.Review({"push", "--remote", "mirror"}).exit_code == 0);
  REQUIRE(s.a.Review({"verdict", "--lineage", lineage, "--verdict", "REQUEST_CHANGES", "--actor",
                      "ana", "--role", "reviewer", "--body", "not yet"})
              .exit_code == 0);
  REQUIRE(s.a.Review({"push"}).exit_code == 0);
  const std::string b = s.Clone("b");
  REQUIRE(GitRun(b, {"remote", "add", "mirror", "file://" + mirror}).exit_code == 0);
  REQUIRE(ReviewIn(b, {"fetch"}).exit_code == 0);
  REQUIRE(ReviewIn(b, {"fetch", "--remote", "mirror"}).exit_code == 0);
  const std::string origin_tip = s.Tip(b, FetchedRef("origin", lineage));
  const std::string mirror_tip = s.Tip(b, FetchedRef("mirror", lineage));
  REQUIRE(origin_tip != mirror_tip);
  for (const std::vector<std::string>& read :
       {std::vector<std::string>{"status", "--lineage", lineage},
        std::vector<std::string>{"export-context", "--lineage", lineage},
        std::vector<std::string>{"verify", "--lineage", lineage},
        std::vector<std::string>{"list"}}) {
    INFO(read[0]);
    RunResult r = ReviewIn(b, read);
    CHECK(ErrorCode(r, 7) == "ambiguous");
    CHECK(r.Json()["error"]["details"] ==
          nlohmann::json{{"mirror", mirror_tip}, {"origin", origin_tip}});
  }
  // The same tip on both: either answers.
  REQUIRE(s.a.Review({"push", "--remote", "mirror"}).exit_code == 0);
  REQUIRE(ReviewIn(b, {"fetch", "--remote", "mirror"}).exit_code == 0);
  RunResult status = ReviewIn(b, {"status", "--lineage", lineage});
  INFO(status.out << status.err);
  REQUIRE(status.exit_code == 0);
  CHECK(status.Json()["lineages"][0]["state"] == "correction_required");
  CHECK(status.Json()["lineages"][0]["source"] == "mirror");
}

TEST_CASE("sharing push is never forced and a diverged remote history is conflict") {
  Sharing s;
  const std::string lineage = s.a.StartNew()["lineage"];
  REQUIRE(s.a.Review({"push"}).exit_code == 0);
  const std::string first = s.Tip(s.origin, HistoryRef(lineage));
  // The remote's history moves to a commit the local one does not descend from.
  const std::string tree = Trim(GitIn(s.origin, {"rev-parse", first + "^{tree}"}));
  const std::string other = Trim(GitIn(s.origin, {"commit-tree", tree, "-m", "elsewhere"}));
  GitIn(s.origin, {"update-ref", HistoryRef(lineage), other});
  REQUIRE(s.a.Review({"verdict", "--lineage", lineage, "--verdict", "NEEDS_DISCUSSION", "--actor",
                      "ana", "--role", "reviewer", "--body", "talk"})
              .exit_code == 0);
  const std::string local = s.Tip(s.a.root(), HistoryRef(lineage));
  RunResult push = s.a.Review({"push", "--lineage", lineage});
  CHECK(ErrorCode(push, 11) == "conflict");
  const nlohmann::json error = push.Json()["error"];
  CHECK(error["lineage"] == lineage);
  CHECK(error["details"]["tip"] == local);
  CHECK(error["details"]["remote"] == "origin");
  CHECK(s.Tip(s.origin, HistoryRef(lineage)) == other);
}

TEST_CASE("sharing a fetch that finds a local ref locked by another process is busy") {
  Sharing s;
  const std::string lineage = s.a.StartNew()["lineage"];
  REQUIRE(s.a.Review({"push", "--lineage", lineage}).exit_code == 0);
  const std::string b = s.Clone("b");
  // What a concurrent `review fetch` holds while git updates the same ref.
  const std::string lock = b + "/.git/" + FetchedRef("origin", lineage) + ".lock";
  WriteFile(lock, "");
  RunResult fetch = ReviewIn(b, {"fetch"});
  CHECK(ErrorCode(fetch, 12) == "busy");
  const nlohmann::json error = fetch.Json()["error"];
  CHECK(error["message"] == "git fetch with remote origin could not update a local ref: " + lock +
                                " is held by another process (retry)");
  CHECK(error["details"]["lock"] == lock);
  CHECK(error["details"]["remote"] == "origin");
  RunResult text = GentleAi({"review", "fetch", "--cwd", b}, b);
  CHECK(text.exit_code == 12);
  CHECK(text.err == "gentle-ai: busy: git fetch with remote origin could not update a local ref: " +
                        lock + " is held by another process (retry)\n");
  CHECK(GitRun(b, {"rev-parse", "--verify", "-q", FetchedRef("origin", lineage)}).exit_code != 0);
  // Once the lock is gone the same fetch goes through.
  std::filesystem::remove(lock);
  RunResult retried = ReviewIn(b, {"fetch"});
  INFO(retried.out << retried.err);
  CHECK(retried.exit_code == 0);
  CHECK(s.Tip(b, FetchedRef("origin", lineage)) == s.Tip(s.a.root(), HistoryRef(lineage)));
}

TEST_CASE("sharing a fetch whose local ref another fetch moved meanwhile is busy") {
  Sharing s;
  const std::string lineage = s.a.StartNew()["lineage"];
  REQUIRE(s.a.Review({"push", "--lineage", lineage}).exit_code == 0);
  const std::string b = s.Clone("b");
  const std::string ref = FetchedRef("origin", lineage);
  // What git 2.39 prints when a concurrent `review fetch` updated the ref between this fetch's
  // read of it and its update (taken from such a race): a git on PATH that prints exactly that for
  // `fetch` and is the real git otherwise.
  const std::string tip = s.Tip(s.a.root(), HistoryRef(lineage));
  const std::string err = "error: cannot lock ref '" + ref + "': is at " + tip + " but expected " +
                          std::string(40, '0') + "\nFrom file://" + s.origin + "\n ! " +
                          tip.substr(0, 7) + ".." + tip.substr(0, 7) + "  " + HistoryRef(lineage) +
                          " -> " + ref + "  (unable to update local ref)\n";
  const TempDir bin;
  WriteFile(bin.path() + "/err.txt", err);
  WriteFile(bin.path() + "/git", "#!/bin/sh\nfor a; do [ \"$a\" = fetch ] && { cat '" + bin.path() +
                                     "/err.txt' >&2; exit 1; }; done\nPATH='" +
                                     std::getenv("PATH") + "' exec git \"$@\"\n");
  REQUIRE(chmod((bin.path() + "/git").c_str(), 0755) == 0);
  const Env raced = {{"PATH", bin.path() + ":" + std::getenv("PATH")}};
  RunResult fetch = ReviewIn(b, {"fetch"}, raced);
  CHECK(ErrorCode(fetch, 12) == "busy");
  const nlohmann::json error = fetch.Json()["error"];
  CHECK(error["message"] == "git fetch with remote origin could not update a local ref: " + ref +
                                " was updated by another process meanwhile (retry)");
  CHECK(error["details"]["ref"] == ref);
  CHECK(error["lineage"] == nullptr);
  // A directory in the ref's place is no race: it stays until someone removes it (git's own
  // refusal, not_found as any other failure of git fetch).
  std::filesystem::create_directories(b + "/.git/" + ref + "/x");
  WriteFile(bin.path() + "/err.txt", "error: cannot lock ref '" + ref +
                                         "': there is a non-empty directory '.git/" + ref +
                                         "' blocking reference '" + ref + "'\n");
  RunResult blocked = ReviewIn(b, {"fetch"}, raced);
  CHECK(ErrorCode(blocked, 3) == "not_found");
}

TEST_CASE("sharing an unknown remote is not_found and hostile remote names are usage before git") {
  Sharing s;
  s.a.StartNew();
  CHECK(ErrorCode(s.a.Review({"push", "--remote", "nosuch"}), 3) == "not_found");
  CHECK(ErrorCode(s.a.Review({"fetch", "--remote", "nosuch"}), 3) == "not_found");
  // Without git on PATH a valid name gets as far as running git (not_found); a hostile one never
  // does (usage).
  const TempDir empty;
  const Env no_git = {{"PATH", empty.path()}};
  CHECK(ErrorCode(s.a.Review({"fetch", "--remote", "origin"}, no_git), 3) == "not_found");
  for (const std::string hostile : {"../x", "a/b", "-x", "", "x:y", "a..b", "x.lock"}) {
    INFO("remote '" << hostile << "'");
    CHECK(ErrorCode(s.a.Review({"push", "--remote=" + hostile}, no_git), 2) == "usage");
    CHECK(ErrorCode(s.a.Review({"fetch", "--remote=" + hostile}, no_git), 2) == "usage");
  }
  CHECK(ErrorCode(s.a.Review({"push", "--lineage", "../x"}, no_git), 2) == "usage");
  CHECK(GitRun(s.origin, {"for-each-ref", "refs/gentle-ai"}).out.empty());
}

TEST_CASE(
    "sharing push of a lineage without a history is not_found and fetch drops what the remote "
    "dropped") {
  Sharing s;
  const std::string lineage = s.a.StartNew()["lineage"];
  RunResult unknown = s.a.Review({"push", "--lineage", "review-0000000000000000"});
  CHECK(ErrorCode(unknown, 3) == "not_found");
  CHECK(unknown.Json()["error"]["lineage"] == "review-0000000000000000");
  REQUIRE(s.a.Review({"push", "--lineage", lineage}).exit_code == 0);
  const std::string b = s.Clone("b");
  REQUIRE(ReviewIn(b, {"fetch"}).exit_code == 0);
  REQUIRE(ReviewIn(b, {"status", "--lineage", lineage}).exit_code == 0);
  GitIn(s.origin, {"update-ref", "-d", HistoryRef(lineage)});
  RunResult fetch = ReviewIn(b, {"fetch"});
  INFO(fetch.out << fetch.err);
  REQUIRE(fetch.exit_code == 0);
  CHECK(fetch.out ==
        "{\"schema\":\"gentle-ai.review-fetch/v1\",\"remote\":\"origin\",\"lineages\":[]}\n");
  CHECK(GitRun(b, {"rev-parse", "--verify", "-q", FetchedRef("origin", lineage)}).exit_code != 0);
  CHECK(ErrorCode(ReviewIn(b, {"status", "--lineage", lineage}), 3) == "not_found");
  RunResult list = ReviewIn(b, {"list"});
  REQUIRE(list.exit_code == 0);
  CHECK(list.Json()["lineages"].empty());
}

TEST_CASE("sharing a forged fetched history is corrupted for every read verb") {
  Sharing s;
  const std::string lineage = ApproveCommitAndPush(s).lineage;
  ForgeTipRecord(s.origin, HistoryRef(lineage));
  const std::string b = s.Clone("b");
  RunResult fetch = ReviewIn(b, {"fetch"});
  INFO(fetch.out << fetch.err);
  REQUIRE(fetch.exit_code == 0);
  const nlohmann::json entry = fetch.Json()["lineages"][0];
  CHECK(entry["verified"] == false);
  CHECK(entry["state"].is_null());
  CHECK(entry["error"]["code"] == "corrupted");
  const auto before = HashTree(b + "/.git");
  for (const std::vector<std::string>& read :
       {std::vector<std::string>{"status", "--lineage", lineage},
        std::vector<std::string>{"export-context", "--lineage", lineage},
        std::vector<std::string>{"verify", "--lineage", lineage, "--against", "HEAD"},
        std::vector<std::string>{"list"}}) {
    INFO(read[0]);
    RunResult r = ReviewIn(b, read);
    CHECK(ErrorCode(r, 7) == "corrupted");
    CHECK(r.Json()["error"]["details"]["source"] == "origin");
  }
  CHECK(HashTree(b + "/.git") == before);
  CHECK(!Exists(b + "/.git/gentle-ai"));
}

TEST_CASE("sharing a history ahead of its record is not pushed") {
  Sharing s;
  const std::string lineage = s.a.StartNew()["lineage"];
  RunResult crashed = s.a.Review({"verdict", "--lineage", lineage, "--verdict", "APPROVE",
                                  "--actor", "ana", "--role", "reviewer", "--body", "ok"},
                                 {{"GENTLE_FAULT_POINT", "verdict:history-prepared"}});
  REQUIRE(crashed.exit_code == 86);
  RunResult push = s.a.Review({"push"});
  CHECK(ErrorCode(push, 6) == "reconciliation_prepared");
  CHECK(push.Json()["error"]["lineage"] == lineage);
  CHECK(GitRun(s.origin, {"for-each-ref", "refs/gentle-ai"}).out.empty());
}

}  // namespace
}  // namespace gentle::testing
