// Crash safety at the system-call level: each mutating command (start, verdict, burn, abandon,
// reclaim, invalidate, index rebuild, import, the seen ledger's add and baseline, and post against
// a Gitea fake, whose transport runs in the process: gh would be a traced child) is killed by
// the kernel on entry to one of the write, pwrite64, rename*, unlink*, rmdir, fsync and fdatasync
// calls it makes on a path under the git common dir (tests/support/syscall_fault.h), on a fresh
// copy of the same store state each time. Afterwards:
//   - `review fsck` reports nothing a person must repair: every finding is one the next writer or
//     `index rebuild` resolves (a git ref lock the killed command held included: its owner record
//     names it, docs/lifecycle.md "Stale ref locks"), names the entry whose index row the
//     interrupted command left prepared (the next writer resolves it), or was there before;
//   - the readers answer, for what the command changes, what they answered before the command or
//     what they answer after it ran to its end (for start, also the documented `incomplete`
//     answer until the next writer);
//   - the next writer (the operation's own kind of writer on something else, then `start` of
//     another candidate) succeeds and leaves no ref lock behind; `fsck` then says exactly what it
//     said before the command or after it, and the readers give the before or the after answer.
//
// Bound: a command's calls of one system call on the store are all tried when there are at most
// kRunsPerSyscall of them, otherwise kRunsPerSyscall of them spread evenly (the first and the last
// included). GENTLE_SYSCALL_LOG=FILE lists the killed runs and their time.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/crash_sweeps.h"
#include "tests/support/fake_forge.h"
#include "tests/support/files.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/strace_kill.h"
#include "tests/support/syscall_fault.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

constexpr size_t kRunsPerSyscall = 40;

struct Operation {
  std::string name;
  // Makes the state before the command in `repo`; returns the command and sets the lineage it
  // concerns (left empty for start: the finished run names it).
  std::function<std::vector<std::string>(LifecycleRepo&, std::string*)> setup;
  // A documented third answer of the readers between the crash and the next writer, if any (one
  // per line when there are several).
  std::string interim;
  // What the readers say (empty: ViewOf the lineage, named by setup or by the finished run).
  std::function<std::string(const LifecycleRepo&)> view = nullptr;
  // The next writer of the operation's own kind, on something else, run before `start`.
  std::vector<std::string> next = {};
  // What the commands of the operation run with, beside the store (a forge fake's environment),
  // and what puts that back as setup left it before each killed run.
  std::function<Env()> env = [] { return Env(); };
  std::function<void()> reset = [] {};
};

// The seen ledger's answer for one PR: its ids and kinds in order, and whether it is baselined
// (times differ run to run).
std::string SeenView(const LifecycleRepo& repo, const std::string& pr) {
  RunResult list = repo.Review({"seen", "list", "--pr", pr});
  INFO("seen list: " << list.out << list.err);
  if (list.exit_code != 0) return "seen list " + std::to_string(list.exit_code);
  const nlohmann::json doc = list.Json();
  std::string view = doc["baselined_at"].is_null() ? "not baselined" : "baselined";
  for (const auto& entry : doc["ids"]) {
    view += "; " + entry["id"].get<std::string>() + " " + entry["kind"].get<std::string>();
  }
  return view;
}

constexpr const char* kSeenPr = "github:acme/webapp#47";

// A seen writer killed between the WAL header and its first frame: readers refuse the ledger
// (`corrupted`, exit 7) until the next `seen add` or `seen baseline` recovers it (docs/loop.md,
// `loop_interrupted`).
constexpr const char* kSeenInterimView = "seen list 7";

// An interrupted start leaves its directory without a record until the next writer undoes it:
// readers call it incomplete meanwhile (docs/lifecycle.md, "Incomplete entries").
constexpr const char* kIncompleteView =
    "status 7 corrupted; list incomplete; export-context 7 corrupted";

// `review post` against a Gitea fake (tests/support/fake_forge.h) that lives as long as the test:
// the forge's world is put back before each killed run, as the store is.
struct PostForge {
  TempDir dir;
  std::unique_ptr<FakeForge> forge;
  nlohmann::json world;
};
PostForge& ThePostForge() {
  static PostForge forge;
  return forge;
}
constexpr const char* kPostPr = "gitea:acme/webapp#47";

// The seen ledger's posted ids of the PR and the reviews the forge holds, counted (ids differ
// run to run only if a second comment were made).
std::string PostView(const LifecycleRepo& repo) {
  RunResult list = repo.Review({"seen", "list", "--pr", kPostPr});
  if (list.exit_code != 0) return "seen list " + std::to_string(list.exit_code);
  size_t posted = 0;
  const nlohmann::json doc = list.Json();
  for (const auto& entry : doc["ids"]) posted += entry["kind"] == "posted" ? 1 : 0;
  const nlohmann::json world =
      nlohmann::json::parse(ReadFile(ThePostForge().dir.path() + "/forge/world.json"));
  return "posted " + std::to_string(posted) + "; reviews " +
         std::to_string(world["reviews"]["acme/webapp#47"].size());
}

std::vector<Operation> Operations() {
  return {
      {"start",
       [](LifecycleRepo& repo, std::string*) {
         repo.StartNew();
         repo.Write("fresh.txt", "fresh\n");
         return std::vector<std::string>{"start", "--untracked", "fresh.txt"};
       },
       kIncompleteView},
      {"verdict",
       [](LifecycleRepo& repo, std::string* lineage) {
         *lineage = repo.StartNew()["lineage"];
         return std::vector<std::string>{"verdict",  "--lineage", *lineage, "--verdict",
                                         "APPROVE",  "--actor",   "ana",    "--role",
                                         "reviewer", "--body",    "fine"};
       },
       ""},
      {"burn",
       [](LifecycleRepo& repo, std::string* lineage) {
         auto approved = repo.StartApproved();
         *lineage = approved.lineage;
         return std::vector<std::string>{"burn",           "--lineage",    approved.lineage,
                                         "--token",        approved.token, "--expected-revision",
                                         approved.revision};
       },
       ""},
      {"abandon",
       [](LifecycleRepo& repo, std::string* lineage) {
         *lineage = repo.StartNew()["lineage"];
         return std::vector<std::string>{
             "abandon", "--lineage", *lineage, "--reason", "operator_disposition",
             "--actor", "ops"};
       },
       ""},
      {"reclaim",
       [](LifecycleRepo& repo, std::string* lineage) {
         repo.StartNew();
         *lineage = "review-00000000c0ffee00";
         WriteFile(repo.store_root() + "/v2/" + *lineage + "/.atomic-x", "partial");
         return std::vector<std::string>{"reclaim", "--lineage", *lineage, "--reason",
                                         "crash",   "--actor",   "ops"};
       },
       ""},
      {"invalidate",
       [](LifecycleRepo& repo, std::string* lineage) {
         *lineage = repo.StartNew()["lineage"];
         return std::vector<std::string>{"invalidate", "--lineage", *lineage, "--reason",
                                         "r",          "--actor",   "ops"};
       },
       ""},
      {"index rebuild",
       [](LifecycleRepo& repo, std::string* lineage) {
         *lineage = repo.StartNew()["lineage"];
         repo.StartApproved();
         return std::vector<std::string>{"index", "rebuild"};
       },
       ""},
      {"import",
       [](LifecycleRepo& repo, std::string* lineage) {
         // A lineage's history as if fetched from a remote, with no local copy: store reset
         // removes the store and refs/gentle-ai/reviews/, not the fetched refs.
         auto approved = repo.StartApproved();
         *lineage = approved.lineage;
         repo.GitOk({"update-ref", "refs/gentle-ai/remotes/origin/reviews/" + *lineage,
                     ReviewRef(*lineage)});
         repo.ReviewOk({"store", "reset", "--yes"});
         repo.StartNew();
         return std::vector<std::string>{"import", "--lineage", *lineage};
       },
       ""},
      {"seen add",
       [](LifecycleRepo& repo, std::string*) {
         repo.ReviewOk({"seen", "baseline", "--pr", kSeenPr, "--id", "100"});
         return std::vector<std::string>{"seen", "add",  "--pr", kSeenPr,   "--id",
                                         "101",  "--id", "102",  "--posted"};
       },
       kSeenInterimView,
       [](const LifecycleRepo& repo) { return SeenView(repo, kSeenPr); },
       {"seen", "add", "--pr", "github:acme/webapp#48", "--id", "7"}},
      {"seen baseline",
       [](LifecycleRepo&, std::string*) {
         return std::vector<std::string>{"seen", "baseline", "--pr", kSeenPr,
                                         "--id", "100",      "--id", "101"};
       },
       kSeenInterimView,
       [](const LifecycleRepo& repo) { return SeenView(repo, kSeenPr); },
       {"seen", "add", "--pr", "github:acme/webapp#48", "--id", "7"}},
      // The next cycle of `review watch` (a writer of the file: it also recovers a WAL the kill
      // interrupted) finds a comment the killed post left on the forge (by its nonce) or sends
      // it; between the two, the forge may hold the comment and the ledger not yet its id, or
      // the ledger is one only a writer reads.
      {"post",
       [](LifecycleRepo& repo, std::string*) {
         PostForge& f = ThePostForge();
         f.forge = std::make_unique<FakeForge>(FakeForge::Kind::kGitea, f.dir.path() + "/forge");
         repo.GitOk({"remote", "add", "origin", f.forge->OriginUrl("acme", "webapp")});
         const std::string lineage = repo.StartNew()["lineage"];
         repo.ReviewOk({"verdict", "--lineage", lineage, "--verdict", "REQUEST_CHANGES", "--actor",
                        "ana", "--role", "reviewer", "--body", "rename x"});
         f.world = {{"pulls", {{"acme/webapp#47", {{"number", 47}}}}},
                    {"reviews", {{"acme/webapp#47", nlohmann::json::array()}}}};
         f.forge->SetWorld(f.world);
         return std::vector<std::string>{"post", "--lineage", lineage, "--pr", kPostPr};
       },
       std::string("posted 0; reviews 1\n") + kSeenInterimView,
       PostView,
       {"watch", "--once", "--pr", kPostPr},
       [] { return ThePostForge().forge->ClientEnv(); },
       [] { ThePostForge().forge->SetWorld(ThePostForge().world); }},
  };
}

// The git ref locks under refs/gentle-ai/ (a command killed inside libgit2's ref write or delete
// leaves one; the next writer removes it).
std::set<std::string> RefLocks(const LifecycleRepo& repo) {
  std::set<std::string> out;
  std::error_code error;
  for (auto it = std::filesystem::recursive_directory_iterator(
           repo.common_dir() + "/refs/gentle-ai", error);
       !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    if (it->path().extension() == ".lock") out.insert(it->path().string());
  }
  return out;
}

// A ref lock fsck says a stopped gentle-ai writer left: the next writer removes it.
bool StoppedWritersRefLock(const Json& finding) {
  return finding["code"] == "ref_lock" && finding["message"].get<std::string>().find(
                                              "the next writer removes it") != std::string::npos;
}

// With GENTLE_SYSCALL_LOG=FILE each killed run appends one line to FILE (to count the runs and
// their time for docs/reliability.md).
void LogRun(const std::string& operation, const StoreCall& call, const std::string& outcome,
            std::chrono::steady_clock::duration took) {
  const char* log = std::getenv("GENTLE_SYSCALL_LOG");
  if (log == nullptr) return;
  std::ofstream(log, std::ios::app)
      << operation << "\t" << call.syscall << "\t" << call.ordinal << "\t" << call.path << "\t"
      << outcome << "\t" << std::chrono::duration<double>(took).count() << "\n";
}

// What the readers say about one lineage, with revisions reduced to "before" (the revision the
// lineage had before the command), "none" or "other", so that a command whose result carries a
// fresh timestamp or token compares equal run to run.
std::string ViewOf(const LifecycleRepo& repo, const std::string& lineage,
                   const std::string& before_revision) {
  auto revision_class = [&](const Json& value) -> std::string {
    if (!value.is_string()) return "none";
    return value.get<std::string>() == before_revision ? "before" : "other";
  };
  auto error_code = [](const Json& doc) -> std::string {
    return doc.contains("error") ? doc["error"]["code"].get<std::string>() : "";
  };
  std::string view;
  {
    RunResult status = repo.Review({"status", "--lineage", lineage});
    const Json doc = status.Json();
    view += "status " + std::to_string(status.exit_code) + " " + error_code(doc);
    if (status.exit_code == 0) {
      REQUIRE(doc["lineages"].size() == 1);
      const Json& entry = doc["lineages"][0];
      view += " " + entry["state"].dump() + " " + revision_class(entry["revision"]);
    }
  }
  {
    RunResult list = repo.Review({"list"});
    INFO("list: " << list.out << list.err);
    CHECK(list.exit_code == 0);
    std::string state = "absent";
    const Json doc = list.Json();
    for (const Json& entry : doc["lineages"]) {
      if (entry["lineage"] == lineage) state = entry["state"].get<std::string>();
    }
    view += "; list " + state;
  }
  {
    RunResult context = repo.Review({"export-context", "--lineage", lineage});
    const Json doc = context.Json();
    view += "; export-context " + std::to_string(context.exit_code) + " " + error_code(doc);
    if (context.exit_code == 0) view += " " + revision_class(doc["revision"]);
  }
  return view;
}

std::string FindingKey(const Json& finding) {
  return finding["code"].get<std::string>() + " " + finding["lineage"].dump() + " " +
         finding["path"].get<std::string>();
}

using Excused = std::function<bool(const Json& finding)>;

// The findings of `review fsck --json` that a person would have to repair, other than those
// in `existing` (FindingKey) that the store held before the command and those `excused`.
std::vector<std::string> UnresolvableFindings(const Json& report,
                                              const std::set<std::string>& existing,
                                              const Excused& excused) {
  static const std::set<std::string> resolvable = {
      "tombstone_live_lineage",  "quarantine_prepared",
      "reset_interrupted",       "index_missing",
      "index_corrupted",         "index_interrupted",
      "index_prepared",          "index_missing_lineage",
      "index_missing_tombstone", "index_missing_quarantine",
      "index_extra_lineage",     "index_extra_tombstone",
      "index_extra_quarantine",  "index_stale_lineage",
      "index_stale_tombstone",   "index_stale_quarantine",
      "interrupted_write",       "loop_interrupted"};
  // Resolvable when they are the interrupted mutation's own entry: its prepared row names it (an
  // import stopped before its ref moved: `pin_missing`, which the next writer moves forward).
  static const std::set<std::string> resolvable_when_prepared = {
      "incomplete_entry", "pin_orphan", "quarantine_corrupted", "history_ahead", "pin_missing"};
  auto text = [](const Json& value) { return value.is_string() ? value.get<std::string>() : ""; };
  std::vector<std::string> out;
  if (!report.contains("findings")) return {report.dump()};  // fsck itself failed
  for (const Json& finding : report["findings"]) {
    const std::string code = finding["code"];
    if (resolvable.count(code) || existing.count(FindingKey(finding)) || excused(finding)) {
      continue;
    }
    bool prepared = false;
    if (resolvable_when_prepared.count(code)) {
      for (const Json& other : report["findings"]) {
        if (other["code"] != "index_prepared") continue;
        const std::string lineage = text(finding["lineage"]), path = text(finding["path"]);
        prepared |= !lineage.empty() && text(other["lineage"]) == lineage;
        prepared |= !path.empty() && text(other["path"]).rfind(path + "/", 0) == 0;
      }
    }
    if (!prepared) out.push_back(finding.dump());
  }
  return out;
}

// The findings of a `review fsck --json` report as FindingKey lines, without those `excused`.
std::set<std::string> FindingSet(const Json& report, const Excused& excused = nullptr) {
  std::set<std::string> out;
  if (!report.contains("findings")) return {report.dump()};
  for (const Json& finding : report["findings"]) {
    if (excused && excused(finding)) continue;
    out.insert(FindingKey(finding));
  }
  return out;
}

// Whether `view` is one of the documented interim answers (`interim`, one per line).
bool IsInterim(const std::string& interim, const std::string& view) {
  std::istringstream lines(interim);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line == view) return true;
  }
  return false;
}

// Runs the command of `operation` killed at each sampled store call; returns the killed runs.
size_t CrashEverywhere(const Operation& operation) {
  // A missing strace fails the sweep (scripts/install-deps.sh installs it): never a silent pass.
  REQUIRE(StraceWorks());
  LifecycleRepo repo;
  std::string lineage;
  const std::vector<std::string> args = operation.setup(repo, &lineage);
  const Env env = operation.env();
  const StoreCopy state(repo);

  // The command run to its end, traced: its calls on the store, and the lineage it concerns.
  RunResult finished;
  const std::vector<StoreCall> calls =
      TraceStoreCalls(repo, args, repo.common_dir(), &finished, env);
  INFO("finished: " << finished.out << finished.err);
  REQUIRE(finished.exit_code == 0);
  REQUIRE_FALSE(calls.empty());
  if (lineage.empty() && !operation.view) lineage = finished.Json()["lineage"];

  // What the readers and fsck say before the command and after it ran to its end.
  state.Restore();
  operation.reset();
  std::string before_revision;
  if (!lineage.empty()) {
    RunResult status = repo.Review({"status", "--lineage", lineage});
    const Json doc = status.Json();
    if (status.exit_code == 0) before_revision = doc["lineages"][0]["revision"];
  }
  auto view = [&] {
    return operation.view ? operation.view(repo) : ViewOf(repo, lineage, before_revision);
  };
  const std::string before = view();
  const std::set<std::string> before_findings = FindingSet(repo.Review({"fsck"}).Json());
  REQUIRE(repo.Review(args, env).exit_code == 0);
  const std::string after = view();
  const std::set<std::string> after_findings = FindingSet(repo.Review({"fsck"}).Json());
  INFO("before: " << before << "\nafter: " << after);
  // An import changes where the lineage lives, not what the readers answer.
  CHECK((operation.name == "index rebuild" || operation.name == "import" || before != after));

  size_t runs = 0;
  for (const std::string& syscall : FaultSyscalls()) {
    std::vector<StoreCall> of_kind;
    for (const StoreCall& call : calls) {
      if (call.syscall == syscall) of_kind.push_back(call);
    }
    for (const StoreCall& call : SpreadSample(of_kind, SweepRunsPerSyscall(kRunsPerSyscall))) {
      INFO("killed at " << call.syscall << " #" << call.ordinal << " on " << call.path);
      state.Restore();
      operation.reset();
      const auto started = std::chrono::steady_clock::now();
      RunResult killed = ReviewKilledAt(repo, args, "", call.syscall, call.ordinal, env);
      INFO("killed run: " << killed.exit_code << " " << killed.out << killed.err);
      CHECK(killed.exit_code == kKilledExit);
      ++runs;
      const bool lock_left = !RefLocks(repo).empty();

      // Right after the crash: nothing a person must repair (a ref lock left is the stopped
      // writer's own, for the next writer to remove); the readers answer before or after.
      RunResult fsck = repo.Review({"fsck"});
      INFO("fsck after the crash: " << fsck.out << fsck.err);
      CHECK(UnresolvableFindings(fsck.Json(), before_findings, StoppedWritersRefLock).empty());
      const std::string crashed = view();
      INFO("view after the crash: " << crashed);
      CHECK((crashed == before || crashed == after || IsInterim(operation.interim, crashed)));

      // The next writers recover, with no hand repair: no ref lock is left, and fsck then says
      // what it said before or after the command.
      if (!operation.next.empty()) {
        RunResult own = repo.Review(operation.next, env);
        INFO("next writer of its kind: " << own.out << own.err);
        CHECK(own.exit_code == 0);
      }
      repo.Write("next.txt", "next writer\n");
      RunResult next = repo.Review({"start", "--untracked", "next.txt"});
      INFO("next writer: " << next.out << next.err);
      CHECK(next.exit_code == 0);
      CHECK(RefLocks(repo).empty());
      RunResult recovered_fsck = repo.Review({"fsck"});
      INFO("fsck after the next writer: " << recovered_fsck.out << recovered_fsck.err);
      const std::set<std::string> recovered_findings = FindingSet(recovered_fsck.Json());
      CHECK((recovered_findings == before_findings || recovered_findings == after_findings));
      const std::string recovered = view();
      INFO("view after the next writer: " << recovered);
      CHECK((recovered == before || recovered == after));
      LogRun(operation.name, call,
             lock_left ? "checked, ref lock removed by the next writer" : "checked",
             std::chrono::steady_clock::now() - started);
    }
  }
  return runs;
}

const Operation& OperationNamed(const std::string& name) {
  static const std::vector<Operation> operations = Operations();
  for (const Operation& operation : operations) {
    if (operation.name == name) return operation;
  }
  FAIL("no operation " << name);
  return operations.front();
}

}  // namespace

std::vector<std::string> SyscallSweepOperations() {
  std::vector<std::string> names;
  for (const Operation& op : Operations()) names.push_back(op.name);
  return names;
}

TEST_CASE("syscall crash: start killed at each store call is recoverable") {
  CrashEverywhere(OperationNamed("start"));
}

TEST_CASE("syscall crash: verdict killed at each store call is recoverable") {
  CrashEverywhere(OperationNamed("verdict"));
}

TEST_CASE("syscall crash: burn killed at each store call is recoverable") {
  CrashEverywhere(OperationNamed("burn"));
}

TEST_CASE("syscall crash: abandon killed at each store call is recoverable") {
  CrashEverywhere(OperationNamed("abandon"));
}

TEST_CASE("syscall crash: reclaim killed at each store call is recoverable") {
  CrashEverywhere(OperationNamed("reclaim"));
}

TEST_CASE("syscall crash: invalidate killed at each store call is recoverable") {
  CrashEverywhere(OperationNamed("invalidate"));
}

TEST_CASE("syscall crash: index rebuild killed at each store call is recoverable") {
  CrashEverywhere(OperationNamed("index rebuild"));
}

TEST_CASE("syscall crash: import killed at each store call is recoverable") {
  CrashEverywhere(OperationNamed("import"));
}

TEST_CASE("syscall crash: seen add killed at each store call is recoverable") {
  CrashEverywhere(OperationNamed("seen add"));
}

TEST_CASE("syscall crash: seen baseline killed at each store call is recoverable") {
  CrashEverywhere(OperationNamed("seen baseline"));
}

TEST_CASE("syscall crash: post killed at each store call is recoverable") {
  CrashEverywhere(OperationNamed("post"));
}

}  // namespace gentle::testing
