// Crashes at the system-call level, for the crash tests (tests/syscall_crash_test.cc).
//
// A command of the built CLI runs once under strace (`-f -y -e trace=<kinds>`) to list, in order,
// the write, pwrite64, rename, renameat, renameat2, unlink, unlinkat, rmdir, fsync and fdatasync
// calls it makes, and which of them act on a path under a given directory (the git common dir):
// for a call on a file descriptor, the path strace's -y resolves it to; otherwise its path
// arguments. It is then rerun killed at one of those calls: ReviewKilledAt (strace_kill.h) with no
// path, so that the kernel kills it on entry to its N-th call of SYSCALL (N counts every call of
// that system call the process makes, as the listing does), before the call takes effect.
//
// StoreCopy keeps a repository's state aside and puts an identical copy back at the same path
// before each run, so that every absolute path (and everything derived from one: worktree
// identities, lineage ids, tombstone keys) is the one the state was made with.
#ifndef GENTLE_TESTS_SUPPORT_SYSCALL_FAULT_H_
#define GENTLE_TESTS_SUPPORT_SYSCALL_FAULT_H_

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/sanitizer_sample.h"

namespace gentle::testing {

// The system calls a crash is injected at.
const std::vector<std::string>& FaultSyscalls();

// One traced call of a fault system call that acts on a path under the directory asked about.
struct StoreCall {
  std::string syscall;
  int ordinal = 0;   // 1-based, among every call of `syscall` the process made
  std::string path;  // the (first) path under the directory it acts on
};

// Runs `gentle-ai review <args> --cwd <root> --json` to completion under strace and returns its
// calls of FaultSyscalls() and of sync_file_range that act on a path under `under`, in order. `run`
// receives the command's own result (exit code, stdout, stderr). `env` is added to
// TracedCommandEnv().
std::vector<StoreCall> TraceStoreCalls(const LifecycleRepo& repo,
                                       const std::vector<std::string>& args,
                                       const std::string& under, RunResult* run,
                                       const Env& env = {});

// How many calls of one system call a sweep kills: `full` in the normal build, and
// kSanitizerSampleRuns (the first and the last, tests/support/sanitizer_sample.h) when
// GENTLE_SANITIZER_BUILD=1, which CTest sets in a sanitizer build (tests/CMakeLists.txt): there the
// sweep looks for memory errors on the recovery paths, and the normal build's full sweep proves the
// recovery itself.
inline constexpr size_t kSanitizerSampleRuns = 2;
size_t SweepRunsPerSyscall(size_t full);

// The repository at `repo.root()` as it is now, kept beside it (`<root>.saved`, with `cp -a`).
class StoreCopy {
 public:
  explicit StoreCopy(const LifecycleRepo& repo);
  ~StoreCopy();
  StoreCopy(const StoreCopy&) = delete;
  StoreCopy& operator=(const StoreCopy&) = delete;
  // Replaces the repository at its path with a fresh copy of the kept state.
  void Restore() const;

 private:
  std::string root_;
  std::string saved_;
};

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_SYSCALL_FAULT_H_
