// StraceKill: a crash where no fault point can be placed (inside SQLite, or between two system
// calls of one store step). The command runs under strace, which has the kernel deliver SIGKILL
// at the N-th call of one system call on one path:
//   strace -f -P PATH -e trace=SYSCALL -e inject=SYSCALL:signal=KILL:when=N gentle-ai review ...
// (docs/reliability.md, "Crash injection and concurrency").
#ifndef GENTLE_TESTS_SUPPORT_STRACE_KILL_H_
#define GENTLE_TESTS_SUPPORT_STRACE_KILL_H_

#include <string>
#include <vector>

#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {

// The exit code of a command that the injection killed (128 + SIGKILL).
inline constexpr int kKilledExit = 137;

// The environment (over GitEnv()) of a command run under strace: a short lock timeout, and
// LeakSanitizer off (it cannot run in a process under ptrace and would abort a sanitized build at
// exit; the untraced runs of the same commands keep the leak check).
Env TracedCommandEnv();

// True when strace is installed and may trace here (scripts/install-deps.sh installs it).
bool StraceWorks();

// `gentle-ai review <args> --cwd <root> --json`, killed at the `n`-th `syscall` on `path` (with
// `path` empty: at its `n`-th call of `syscall` on anything); a command that makes fewer such calls
// runs to its end and returns its own exit code.
// Its environment is TracedCommandEnv() plus `env` (e.g. a forge fake's,
// tests/support/fake_forge.h).
RunResult ReviewKilledAt(const LifecycleRepo& repo, const std::vector<std::string>& args,
                         const std::string& path, const std::string& syscall, int n,
                         const Env& env = {});

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_STRACE_KILL_H_
