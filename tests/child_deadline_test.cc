// Every child process has a deadline (store/program_run.h; docs/reliability.md, "Child processes
// and their deadlines"): a child that never finishes is killed with its process group and the
// command answers `busy` (exit 12) naming the command and the deadline, having written nothing.
// The hung children are real programs blocked opening a FIFO nobody writes (no timing: the test
// waits only for the kernel to finish a kill it already sent): the signing program of an APPROVE
// --sign (git config gpg.ssh.program), the pre-push hook git runs for `review push` and the git
// on PATH that `export-context --engine git` runs. The test
// build's GENTLE_CHILD_DEADLINE_MS (store/test_hooks.h) shortens the deadline; Run's own timeout
// turns a hang of the code under test into a failure.
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

constexpr int kHangGuardMs = 60000;
const Env kShortDeadline = {{"GENTLE_CHILD_DEADLINE_MS", "300"},
                            {"GENTLE_LOCK_TIMEOUT_MS", "2000"}};

// A FIFO and a shell script that writes its pid and then blocks opening the FIFO for reading
// (nobody ever writes to it).
struct Hang {
  TempDir dir;
  std::string fifo = dir.path() + "/never";
  std::string script = dir.path() + "/hang";
  std::string pid_file = dir.path() + "/pid";
  Hang() {
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    WriteFile(script, "#!/bin/sh\necho $$ > '" + pid_file + "'\nread line < '" + fifo + "'\n");
    REQUIRE(chmod(script.c_str(), 0755) == 0);
  }
  // Whether the script's process is dead (gone, or a zombie nobody reaped yet). A SIGKILL takes
  // effect asynchronously, so this waits for the kernel up to `limit`, checking /proc; a process
  // that is still blocked on the FIFO after that was not killed.
  bool Dead(std::chrono::milliseconds limit = std::chrono::milliseconds(10000)) const {
    const std::string written = ReadFile(pid_file);
    const std::string pid = written.substr(0, written.find('\n'));
    REQUIRE_FALSE(pid.empty());
    const auto until = std::chrono::steady_clock::now() + limit;
    for (;;) {
      std::ifstream stat("/proc/" + pid + "/stat");
      std::string line;
      if (!std::getline(stat, line)) return true;  // gone
      const size_t paren = line.rfind(')');
      if (paren != std::string::npos && line.size() > paren + 2 && line[paren + 2] == 'Z') {
        return true;  // dead, not yet reaped
      }
      if (std::chrono::steady_clock::now() > until) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
};

RunResult Review(const LifecycleRepo& repo, const std::vector<std::string>& args) {
  return GentleAi(repo.ReviewArgs(args), repo.root(), kShortDeadline, {}, kHangGuardMs);
}

void ExpectKilled(const RunResult& run, const std::string& command) {
  INFO("stdout: " << run.out << "\nstderr: " << run.err);
  CHECK_FALSE(run.timed_out);
  CHECK(run.exit_code == 12);
  const nlohmann::json error = run.Json()["error"];
  CHECK(error["code"] == "busy");
  CHECK(error["message"] ==
        command + " did not finish within its deadline of 300 ms and was killed");
  CHECK(error["details"]["command"] == command);
  CHECK(error["details"]["deadline_ms"] == "300");
}

TEST_CASE("child deadline: a signing program that never ends is killed - APPROVE records nothing") {
  Hang hang;
  TempDir keys;
  const std::string key = keys.path() + "/ana";
  REQUIRE(Run({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "ana", "-f", key}).exit_code ==
          0);
  LifecycleRepo repo;
  repo.GitOk({"config", "gpg.format", "ssh"});
  repo.GitOk({"config", "user.signingKey", key});
  repo.GitOk({"config", "gpg.ssh.program", hang.script});
  const std::string lineage = repo.StartNew()["lineage"];
  const auto before = repo.StoreBytes();
  RunResult run = Review(repo, {"verdict", "--lineage", lineage, "--verdict", "APPROVE", "--actor",
                                "ana", "--role", "reviewer", "--body", "Fine.", "--sign"});
  ExpectKilled(run, hang.script);
  CHECK(run.Json()["error"]["lineage"] == lineage);
  CHECK(repo.StoreBytes() == before);
  CHECK(repo.ReviewOk({"status", "--lineage", lineage})["lineages"][0]["state"] == "reviewing");
  CHECK(hang.Dead());
}

TEST_CASE("child deadline: git push whose pre-push hook never ends is killed with its hook") {
  Hang hang;
  TempDir tmp;
  const std::string origin = tmp.path() + "/origin.git";
  REQUIRE(GitRun(tmp.path(), {"init", "-q", "--bare", origin}).exit_code == 0);
  LifecycleRepo repo;
  repo.GitOk({"remote", "add", "origin", "file://" + origin});
  const std::string lineage = repo.StartNew()["lineage"];
  WriteFile(repo.common_dir() + "/hooks/pre-push", ReadFile(hang.script));
  REQUIRE(chmod((repo.common_dir() + "/hooks/pre-push").c_str(), 0755) == 0);
  RunResult run = Review(repo, {"push", "--lineage", lineage});
  ExpectKilled(run, "git push");
  // The hook, git's child, went with git's process group.
  CHECK(hang.Dead());
  CHECK(GitRun(origin, {"for-each-ref", "refs/gentle-ai"}).out.empty());
}

TEST_CASE("child deadline: the git CLI of --engine git that never ends is killed") {
  Hang hang;
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  // The git on PATH, which --engine git runs, is one that blocks.
  WriteFile(hang.dir.path() + "/git", ReadFile(hang.script));
  REQUIRE(chmod((hang.dir.path() + "/git").c_str(), 0755) == 0);
  Env env = kShortDeadline;
  env["PATH"] = hang.dir.path() + ":" + std::string(std::getenv("PATH"));
  RunResult run = GentleAi(
      repo.ReviewArgs({"export-context", "--lineage", lineage, "--engine", "git", "--json"}),
      repo.root(), env, {}, kHangGuardMs);
  ExpectKilled(run, "git diff (--engine git)");
  CHECK(hang.Dead());
}

}  // namespace
}  // namespace gentle::testing
