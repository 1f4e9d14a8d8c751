// RunProgram: the one way the binary runs another program (git for push, fetch and routing, git
// diff for `--engine git`, ssh-keygen for signed approvals, gh, watch's --exec and --on-new
// commands), with an exec argv, no shell of its own, a deadline, and what it prints collected.
//
// argv[0] is looked up on PATH (posix_spawnp). The child gets this process's environment (or
// `environment` when given) and working directory; `input` is written to its stdin, which is then
// closed (empty input: stdin closed at once, reads see end of file); stdout and stderr are read
// in full, each up to `max_capture` bytes (the rest is read and dropped). With
// `stop_past_capture`, stdout growing past `max_capture` ends the child instead (`truncated`).
//
// Deadline: a child still running `deadline` after it started is killed with SIGKILL and the
// answer is `busy` (exit 12, safe to retry), the message naming the command and the deadline,
// details `command` and `deadline_ms`. The child leads a process group of its own, so what
// it started (git's ssh, hooks and remote helpers; a --exec command's children) is killed with it,
// unless this process is the foreground process group of its controlling terminal: then the child
// stays in it, so it can still ask the person at the terminal (a passphrase, a credential), and
// only the child itself is killed. The defaults below are generous (docs/reliability.md, "Child
// processes and their deadlines"); the test build can shorten every one (store/test_hooks.h).
//
// A program that cannot be started is `not_found` (message: why); otherwise the result holds its
// exit code (128 + the signal number when a signal ended it). The caller decides what a failure
// means.
#ifndef GENTLE_STORE_PROGRAM_RUN_H_
#define GENTLE_STORE_PROGRAM_RUN_H_

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "store/status.h"

namespace gentle::store {

// git for push and fetch: a huge repository over a slow link.
inline constexpr std::chrono::seconds kGitDeadline{3600};
// git diff for `--engine git`: local, its output bounded by the export budget.
inline constexpr std::chrono::seconds kGitDiffDeadline{1800};
// ssh-keygen signing or verifying: a hardware key may wait for a touch, a key for its passphrase.
inline constexpr std::chrono::seconds kSignerDeadline{300};
// gh, watch's --exec and --on-new commands (a hint handed to a session manager), and watch's local
// git questions (worktree list, remote get-url): the default.
inline constexpr std::chrono::seconds kCommandDeadline{60};

inline constexpr size_t kMaxProgramCapture = 1u << 20;

struct ProgramOutput {
  int exit_code = 0;
  std::string out;
  std::string err;
  bool truncated = false;  // stop_past_capture ended it
};

struct ProgramRequest {
  std::vector<std::string> argv;
  std::string_view input;
  const std::vector<std::string>* environment = nullptr;  // NAME=value entries; null: inherited
  size_t max_capture = kMaxProgramCapture;
  bool stop_past_capture = false;
  std::chrono::milliseconds deadline = kCommandDeadline;
  std::string name;  // the command in messages; empty: argv[0]
};

Result<ProgramOutput> RunProgram(const ProgramRequest& request);

Result<ProgramOutput> RunProgram(const std::vector<std::string>& argv, std::string_view input,
                                 std::chrono::milliseconds deadline = kCommandDeadline);

}  // namespace gentle::store

#endif  // GENTLE_STORE_PROGRAM_RUN_H_
