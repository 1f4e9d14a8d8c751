// History refs (docs/format.md "The history tree"): one deterministic commit
// per successful mutation, its tree holding the record of that revision byte for byte, verdict
// bodies, and on a terminal commit the tombstone or audit record; written before the record, so a
// crash leaves the history at most one step ahead, which fsck reports and the next writer rolls
// back.
#include <catch2/catch.hpp>
#include <sstream>

#include "tests/support/files.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// Subjects of the history, newest first.
std::vector<std::string> Subjects(const LifecycleRepo& repo, const std::string& lineage) {
  std::istringstream lines(repo.GitOk({"log", "--format=%s", ReviewRef(lineage)}));
  std::vector<std::string> out;
  for (std::string line; std::getline(lines, line);) out.push_back(line);
  return out;
}

std::string Show(const LifecycleRepo& repo, const std::string& rev, const std::string& path) {
  return repo.GitOk({"cat-file", "blob", rev + ":" + path});
}

std::vector<std::string> FindingCodes(const Json& report) {
  std::vector<std::string> out;
  for (const auto& f : report["findings"]) out.push_back(f["code"]);
  return out;
}

std::vector<std::string> Verdict(const std::string& lineage, const std::string& verdict,
                                 const std::string& body) {
  return {"verdict", "--lineage", lineage,    "--verdict", verdict, "--actor",
          "ana",     "--role",    "reviewer", "--body",    body};
}

TEST_CASE("history: every mutation appends one commit holding the record of its revision") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  CHECK(Subjects(repo, lineage) == std::vector<std::string>{"start " + lineage});
  CHECK(Show(repo, ReviewRef(lineage), "review-state.json") == ReadFile(repo.record_path(lineage)));

  RunResult changes = repo.Review(Verdict(lineage, "REQUEST_CHANGES", "Fix the loop.\n"));
  REQUIRE(changes.exit_code == 0);
  const std::string record_after_changes = ReadFile(repo.record_path(lineage));
  CHECK(Show(repo, ReviewRef(lineage), "review-state.json") == record_after_changes);
  const std::string verdict_file = Show(repo, ReviewRef(lineage), "verdicts/1.md");
  CHECK(verdict_file ==
        "---\nverdict: \"REQUEST_CHANGES\"\nactor: \"ana\"\nrole: \"reviewer\"\nat: \"" +
            changes.Json()["at"].get<std::string>() +
            "\"\nfrom_state: \"reviewing\"\nto_state: \"correction_required\"\nbody_sha256: \"" +
            changes.Json()["body_sha256"].get<std::string>() + "\"\n---\nFix the loop.\n");

  RunResult approve = repo.Review(Verdict(lineage, "APPROVE", "Now it is right."));
  REQUIRE(approve.exit_code == 0);
  const std::string approved_record = ReadFile(repo.record_path(lineage));
  CHECK(Show(repo, ReviewRef(lineage), "review-state.json") == approved_record);
  // The second verdict of generation 1 replaces the file in the tip; its parent keeps the first.
  CHECK(Show(repo, ReviewRef(lineage), "verdicts/1.md").find("Now it is right.") !=
        std::string::npos);
  CHECK(Show(repo, ReviewRef(lineage) + "~1", "verdicts/1.md") == verdict_file);
  const std::string message = repo.GitOk({"log", "-1", "--format=%B", ReviewRef(lineage)});
  CHECK(message == "verdict " + lineage + "\n\nLineage: " + lineage +
                       "\nRevision: " + approve.Json()["revision"].get<std::string>() +
                       "\nState: approved\nAt: " + approve.Json()["at"].get<std::string>() +
                       "\nCreated-At: " +
                       Trim(repo.GitOk({"log", "-1",
                                        "--format=%(trailers:key=Created-At,"
                                        "valueonly)",
                                        ReviewRef(lineage) + "~2"})) +
                       "\nVerdict: APPROVE\n\n");

  // Burn keeps the ref: a terminal commit holding the burned record and the tombstone.
  RunResult burn = repo.Review({"burn", "--lineage", lineage, "--token", approve.Json()["token"],
                                "--expected-revision", approve.Json()["revision"]});
  REQUIRE(burn.exit_code == 0);
  CHECK(Subjects(repo, lineage) == std::vector<std::string>{"burn " + lineage, "verdict " + lineage,
                                                            "verdict " + lineage,
                                                            "start " + lineage});
  CHECK(Show(repo, ReviewRef(lineage), "review-state.json") == approved_record);
  CHECK(Show(repo, ReviewRef(lineage), "tombstone.json") ==
        ReadFile(burn.Json()["tombstone"].get<std::string>()));
  CHECK(Trim(repo.GitOk({"log", "-1", "--format=%(trailers:key=State,valueonly)",
                         ReviewRef(lineage)})) == "consumed");
  // Git accepts every object; fsck of the store is clean with the terminal history in place.
  CHECK(repo.Git({"fsck", "--strict", "--no-dangling"}).exit_code == 0);
  RunResult fsck = repo.Review({"fsck"});
  INFO(fsck.out);
  CHECK(fsck.exit_code == 0);
}

TEST_CASE("history: abandon and invalidate write their commits and keep the ref") {
  LifecycleRepo repo;
  const std::string abandoned = repo.StartNew()["lineage"];
  const std::string record = ReadFile(repo.record_path(abandoned));
  RunResult abandon = repo.Review(
      {"abandon", "--lineage", abandoned, "--reason", "operator_disposition", "--actor", "ops"});
  REQUIRE(abandon.exit_code == 0);
  CHECK(Subjects(repo, abandoned) ==
        std::vector<std::string>{"abandon " + abandoned, "start " + abandoned});
  CHECK(Show(repo, ReviewRef(abandoned), "review-state.json") == record);
  CHECK(Show(repo, ReviewRef(abandoned), "reclaim-record.json") ==
        ReadFile(abandon.Json()["audit_record"].get<std::string>()));

  const std::string invalidated = repo.StartNew()["lineage"];
  RunResult invalidate = repo.Review(
      {"invalidate", "--lineage", invalidated, "--reason", "wrong base", "--actor", "ana"});
  REQUIRE(invalidate.exit_code == 0);
  CHECK(Subjects(repo, invalidated) ==
        std::vector<std::string>{"invalidate " + invalidated, "start " + invalidated});
  CHECK(Show(repo, ReviewRef(invalidated), "review-state.json") ==
        ReadFile(repo.record_path(invalidated)));
  CHECK(Trim(repo.GitOk({"log", "-1", "--format=%(trailers:key=Actor,valueonly)",
                         ReviewRef(invalidated)})) == "ana");
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

TEST_CASE("history: the same mutations give the same commit ids - GENTLE_FIXED_TIME") {
  LifecycleRepo repo;
  repo.Write("fixed.txt", "fixed\n");
  const Env fixed = {{"GENTLE_FIXED_TIME", "2026-11-30T09:00:00.5Z"}};
  auto run_all = [&]() {
    RunResult start = repo.Review({"start", "--untracked", "fixed.txt"}, fixed);
    REQUIRE(start.exit_code == 0);
    const std::string lineage = start.Json()["lineage"];
    REQUIRE(repo.Review(Verdict(lineage, "REQUEST_CHANGES", "again"), fixed).exit_code == 0);
    REQUIRE(repo.Review(Verdict(lineage, "NEEDS_DISCUSSION", "talk"), fixed).exit_code == 0);
    return std::make_pair(lineage, Trim(repo.GitOk({"log", "--format=%H", ReviewRef(lineage)})));
  };
  const auto first = run_all();
  REQUIRE(repo.Review({"store", "reset", "--yes"}).exit_code == 0);
  REQUIRE(repo.Git({"for-each-ref", "refs/gentle-ai"}).out.empty());
  const auto second = run_all();
  CHECK(first == second);
  // The start commit, exactly: fixed identity, the record's time, no parent.
  const std::string root = repo.GitOk({"rev-list", "--max-parents=0", ReviewRef(first.first)});
  const std::string commit = repo.GitOk({"cat-file", "commit", Trim(root)});
  const std::string tree = Trim(repo.GitOk({"rev-parse", Trim(root) + "^{tree}"}));
  CHECK(commit == "tree " + tree +
                      "\nauthor gentle-ai <gentle-ai@invalid> 1796029200 +0000"
                      "\ncommitter gentle-ai <gentle-ai@invalid> 1796029200 +0000\n\nstart " +
                      first.first + "\n\nLineage: " + first.first + "\nRevision: " +
                      Trim(repo.GitOk({"log", "-1", "--format=%(trailers:key=Revision,valueonly)",
                                       Trim(root)})) +
                      "\nState: reviewing\nAt: 2026-11-30T09:00:00.5Z\nCreated-At: "
                      "2026-11-30T09:00:00.5Z\n");
  CHECK(repo.GitOk({"ls-tree", "--name-only", Trim(root)}) ==
        "base\ncandidate\nreview-state.json\n");
}

// Each new step leaves the store before or after the mutation, and the next command says which.
TEST_CASE("history: a crash after the history commit and before the record is rolled back") {
  struct Case {
    const char* point;
    int status_after;  // status --lineage right after the crash
  };
  for (const Case& c :
       {Case{"verdict:history-prepared", 0}, Case{"burn:history-prepared", 0},
        Case{"abandon:history-prepared", 0}, Case{"invalidate:history-prepared", 0}}) {
    INFO(c.point);
    LifecycleRepo repo;
    auto approved = repo.StartApproved();
    const std::string live = repo.StartNew()["lineage"];
    const std::string verb = std::string(c.point).substr(0, std::string(c.point).find(':'));
    std::vector<std::string> args;
    std::string lineage = live;
    if (verb == "verdict") args = Verdict(live, "REQUEST_CHANGES", "x");
    if (verb == "burn") {
      lineage = approved.lineage;
      args = {"burn",         "--lineage",           approved.lineage, "--token",
              approved.token, "--expected-revision", approved.revision};
    }
    if (verb == "abandon") {
      args = {"abandon", "--lineage", live, "--reason", "operator_disposition", "--actor", "ops"};
    }
    if (verb == "invalidate") {
      args = {"invalidate", "--lineage", live, "--reason", "r", "--actor", "ops"};
    }
    const std::string before_tip = Trim(repo.GitOk({"rev-parse", ReviewRef(lineage)}));
    const std::string record = ReadFile(repo.record_path(lineage));
    REQUIRE(repo.Review(args, {{"GENTLE_FAULT_POINT", c.point}}).exit_code == 86);
    // The history is one step ahead; the record is as before.
    CHECK(Trim(repo.GitOk({"rev-parse", ReviewRef(lineage) + "~1"})) == before_tip);
    CHECK(ReadFile(repo.record_path(lineage)) == record);
    CHECK(repo.Review({"status", "--lineage", lineage}).exit_code == c.status_after);
    RunResult fsck = repo.Review({"fsck"});
    CHECK(fsck.exit_code == 7);
    const auto codes = FindingCodes(fsck.Json());
    CHECK(std::count(codes.begin(), codes.end(), "history_ahead") == 1);
    // The next writer (of any lineage) rolls the tip back; the retry then succeeds once.
    repo.StartNew();
    CHECK(Trim(repo.GitOk({"rev-parse", ReviewRef(lineage)})) == before_tip);
    CHECK(repo.Review({"fsck"}).exit_code == 0);
    RunResult retry = repo.Review(args);
    INFO(retry.out << retry.err);
    CHECK(retry.exit_code == 0);
    CHECK(Trim(repo.GitOk({"rev-parse", ReviewRef(lineage) + "~1"})) == before_tip);
    CHECK(repo.Review({"fsck"}).exit_code == 0);
  }
}

TEST_CASE("history: a crash after the record keeps the verdict body in the history") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  REQUIRE(repo.Review(Verdict(lineage, "REQUEST_CHANGES", "the body survives"),
                      {{"GENTLE_FAULT_POINT", "verdict:record-written"}})
              .exit_code == 86);
  RunResult status = repo.Review({"status", "--lineage", lineage});
  CHECK(status.Json()["lineages"][0]["state"] == "correction_required");
  CHECK(Show(repo, ReviewRef(lineage), "review-state.json") == ReadFile(repo.record_path(lineage)));
  CHECK(Show(repo, ReviewRef(lineage), "verdicts/1.md").find("the body survives") !=
        std::string::npos);
  repo.StartNew();
  CHECK(Subjects(repo, lineage) ==
        std::vector<std::string>{"verdict " + lineage, "start " + lineage});
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

TEST_CASE("history: an interrupted start leaves a tip the next writer removes") {
  LifecycleRepo repo;
  repo.Write("fresh.txt", "fresh\n");
  RunResult crashed = repo.Review({"start", "--untracked", "fresh.txt"},
                                  {{"GENTLE_FAULT_POINT", "start:history-prepared"}});
  REQUIRE(crashed.exit_code == 86);
  const std::string refs = repo.Git({"for-each-ref", "--format=%(refname)", "refs/gentle-ai"}).out;
  REQUIRE(!refs.empty());
  CHECK(FindingCodes(repo.Review({"fsck"}).Json()) ==
        std::vector<std::string>{"index_prepared", "history_ahead"});
  repo.StartNew();
  CHECK(repo.Git({"for-each-ref", "--format=%(refname)", "refs/gentle-ai"}).out.find(Trim(refs)) ==
        std::string::npos);
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

TEST_CASE("history: one step behind is reported and recorded by the next write") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  REQUIRE(repo.Review(Verdict(lineage, "REQUEST_CHANGES", "one")).exit_code == 0);
  // As if another tool had rewritten the record without the history: drop the verdict commit.
  REQUIRE(repo.Git({"update-ref", ReviewRef(lineage), ReviewRef(lineage) + "~1"}).exit_code == 0);
  RunResult fsck = repo.Review({"fsck"});
  CHECK(fsck.exit_code == 7);
  CHECK(FindingCodes(fsck.Json()) == std::vector<std::string>{"history_behind"});
  REQUIRE(repo.Review(Verdict(lineage, "APPROVE", "two")).exit_code == 0);
  CHECK(Subjects(repo, lineage) ==
        std::vector<std::string>{"verdict " + lineage, "sync " + lineage, "start " + lineage});
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

TEST_CASE("history: a history ref that does not read is history_corrupted and refuses writes") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  const std::string record = ReadFile(repo.store_root() + "/v2/" + lineage + "/review-state.json");
  // The ref names a blob, not a commit.
  RunResult blob = Run({"git", "hash-object", "-w", "--stdin"}, repo.root(), {}, "not a commit\n");
  REQUIRE(blob.exit_code == 0);
  REQUIRE(repo.Git({"update-ref", ReviewRef(lineage), Trim(blob.out)}).exit_code == 0);
  // The creation time the index row holds came from the history, which no longer reads: the row
  // is stale too.
  RunResult fsck = repo.Review({"fsck"});
  CHECK(fsck.exit_code == 7);
  CHECK(FindingCodes(fsck.Json()) ==
        std::vector<std::string>{"index_stale_lineage", "history_corrupted"});
  CHECK(fsck.Json()["findings"][1]["path"] == ReviewRef(lineage));
  // A write refuses (a wrongly typed object is objects_missing, docs/engine.md) and changes
  // nothing.
  RunResult verdict = repo.Review(Verdict(lineage, "REQUEST_CHANGES", "x"));
  INFO(verdict.out << verdict.err);
  CHECK(verdict.exit_code == 8);
  CHECK(verdict.Json()["error"]["code"] == "objects_missing");
  CHECK(ReadFile(repo.store_root() + "/v2/" + lineage + "/review-state.json") == record);
}

TEST_CASE("history: an old single-commit pin is upgraded on the next write") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  // The pin earlier builds wrote: a tree of base and candidate, time 0, no record.
  const std::string tree =
      Trim(repo.GitOk({"rev-parse", ReviewRef(lineage) + "^{tree}"}));  // base, candidate, record
  const std::string base = Trim(repo.GitOk({"rev-parse", ReviewRef(lineage) + ":base"}));
  const std::string cand = Trim(repo.GitOk({"rev-parse", ReviewRef(lineage) + ":candidate"}));
  (void)tree;
  TempDir dir;
  WriteFile(dir.path() + "/tree",
            "040000 tree " + base + "\tbase\n040000 tree " + cand + "\tcandidate\n");
  RunResult mktree = Run({"sh", "-c", "git mktree < " + dir.path() + "/tree"}, repo.root());
  REQUIRE(mktree.exit_code == 0);
  RunResult pin =
      Run({"git", "commit-tree", Trim(mktree.out), "-m", "gentle-ai review pin"}, repo.root(),
          {{"GIT_AUTHOR_NAME", "gentle-ai"},
           {"GIT_AUTHOR_EMAIL", "gentle-ai@invalid"},
           {"GIT_AUTHOR_DATE", "@0 +0000"},
           {"GIT_COMMITTER_NAME", "gentle-ai"},
           {"GIT_COMMITTER_EMAIL", "gentle-ai@invalid"},
           {"GIT_COMMITTER_DATE", "@0 +0000"}});
  REQUIRE(pin.exit_code == 0);
  REQUIRE(repo.Git({"update-ref", ReviewRef(lineage), Trim(pin.out)}).exit_code == 0);
  // An old pin is not damage (fsck names no history finding; the hand-made record here has no
  // created_at, so the index row's time differs, which a record of an earlier build would not).
  const std::string report = repo.Review({"fsck"}).out;
  CHECK(report.find("\"code\":\"history_") == std::string::npos);
  CHECK(report.find("\"code\":\"pin_") == std::string::npos);
  REQUIRE(repo.Review(Verdict(lineage, "REQUEST_CHANGES", "upgrade")).exit_code == 0);
  CHECK(Subjects(repo, lineage) ==
        std::vector<std::string>{"verdict " + lineage, "sync " + lineage});
  CHECK(Show(repo, ReviewRef(lineage), "review-state.json") == ReadFile(repo.record_path(lineage)));
  CHECK(repo.Review({"fsck"}).exit_code == 0);
}

}  // namespace
}  // namespace gentle::testing

namespace gentle::testing {
namespace {

TEST_CASE(
    "verify --against accepts an approval burned since - consumed true - other states are "
    "wrong_state") {
  LifecycleRepo repo;
  auto approved = repo.StartApproved();  // the candidate adds change-1.txt
  REQUIRE(repo.Git({"add", "change-1.txt"}).exit_code == 0);
  REQUIRE(repo.Git({"commit", "-q", "-m", "merge the reviewed change"}).exit_code == 0);
  const std::vector<std::string> verify = {"verify", "--lineage", approved.lineage, "--against",
                                           "HEAD"};
  RunResult before = repo.Review(verify);
  INFO(before.out << before.err);
  REQUIRE(before.exit_code == 0);
  CHECK(before.Json()["consumed"] == false);
  REQUIRE(repo.Review({"burn", "--lineage", approved.lineage, "--token", approved.token,
                       "--expected-revision", approved.revision})
              .exit_code == 0);
  RunResult after = repo.Review(verify);
  INFO(after.out << after.err);
  REQUIRE(after.exit_code == 0);
  CHECK(after.Json()["consumed"] == true);
  CHECK(after.Json()["state"] == "approved");
  CHECK(after.Json()["candidate_tree"] == before.Json()["candidate_tree"]);
  CHECK(after.Json()["sha256"] == before.Json()["sha256"]);
  RunResult human = repo.Review(verify, {}, false);
  CHECK(human.out.find("burned since (consumed)") != std::string::npos);
  // Another tree is still not reviewed; without --against a burned lineage answers consumed.
  RunResult other = repo.Review({"verify", "--lineage", approved.lineage, "--against", "HEAD~1"});
  CHECK(other.exit_code == 10);
  CHECK(other.Json()["error"]["code"] == "not_reviewed");
  CHECK(repo.Review({"verify", "--lineage", approved.lineage}).exit_code == 4);

  // Any other state is wrong_state.
  const std::string changes = repo.StartNew()["lineage"];  // change-2.txt
  REQUIRE(repo.Review({"verdict", "--lineage", changes, "--verdict", "REQUEST_CHANGES", "--actor",
                       "ana", "--role", "reviewer", "--body", "no"})
              .exit_code == 0);
  REQUIRE(repo.Git({"add", "change-2.txt"}).exit_code == 0);
  REQUIRE(repo.Git({"commit", "-q", "-m", "merge unapproved"}).exit_code == 0);
  RunResult wrong = repo.Review({"verify", "--lineage", changes, "--against", "HEAD"});
  CHECK(wrong.exit_code == 6);
  CHECK(wrong.Json()["error"]["code"] == "wrong_state");
}

}  // namespace
}  // namespace gentle::testing
