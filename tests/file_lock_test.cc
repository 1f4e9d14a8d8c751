// FileLock's turnstile: a waiting exclusive taker is not starved by shared takers that arrive
// after it, and a writer that gives up (or dies) leaves nothing behind that blocks readers.
#include "store/file_lock.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <thread>

#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

using store::FileLock;
using store::LockMode;

// Sets GENTLE_LOCK_TIMEOUT_MS for the scope.
class LockTimeout {
 public:
  explicit LockTimeout(int ms) { setenv("GENTLE_LOCK_TIMEOUT_MS", std::to_string(ms).c_str(), 1); }
  ~LockTimeout() { unsetenv("GENTLE_LOCK_TIMEOUT_MS"); }
};

// Whether another open file description holds a write lock on byte 0 (the turnstile).
bool TurnstileTaken(const std::string& path) {
  int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  REQUIRE(fd >= 0);
  struct flock range {};
  range.l_type = F_WRLCK;
  range.l_whence = SEEK_SET;
  range.l_start = 0;
  range.l_len = 1;
  REQUIRE(fcntl(fd, F_OFD_GETLK, &range) == 0);
  close(fd);
  return range.l_type == F_WRLCK;
}

// Waits (bounded) until a condition the other process establishes holds.
template <typename Condition>
bool Eventually(Condition condition) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

// Forks a process that takes the lock exclusively with `timeout_ms`; it exits 0 when it got the
// lock, 12 when it was busy, 1 otherwise.
pid_t ForkExclusiveTaker(const std::string& path, int timeout_ms) {
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    setenv("GENTLE_LOCK_TIMEOUT_MS", std::to_string(timeout_ms).c_str(), 1);
    auto lock = FileLock::Acquire(path, LockMode::kExclusive, true);
    _exit(lock.ok() ? 0 : (lock.status().code() == Code::kBusy ? 12 : 1));
  }
  return pid;
}

int WaitExit(pid_t pid) {
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  return WEXITSTATUS(status);
}

TEST_CASE("file lock: shared takers queue behind a waiting exclusive taker") {
  TempDir dir;
  const std::string path = dir.path() + "/MAINTENANCE.lock";
  auto reader = FileLock::Acquire(path, LockMode::kShared, true);
  REQUIRE(reader.ok());

  pid_t writer = ForkExclusiveTaker(path, 30000);
  REQUIRE(Eventually([&] { return TurnstileTaken(path); }));
  {
    // Without the turnstile this shared lock would be granted at once (only shared locks are held)
    // and a stream of such readers could keep the writer out forever.
    LockTimeout short_wait(50);
    auto late_reader = FileLock::Acquire(path, LockMode::kShared, true);
    REQUIRE_FALSE(late_reader.ok());
    CHECK(late_reader.status().code() == Code::kBusy);
  }
  *reader = FileLock();  // the reader already in finishes: the writer gets its turn
  CHECK(WaitExit(writer) == 0);

  LockTimeout short_wait(50);
  auto after = FileLock::Acquire(path, LockMode::kShared, true);
  CHECK(after.ok());
}

TEST_CASE("file lock: a writer that gives up or dies releases the turnstile") {
  TempDir dir;
  const std::string path = dir.path() + "/MAINTENANCE.lock";
  auto reader = FileLock::Acquire(path, LockMode::kShared, true);
  REQUIRE(reader.ok());

  SECTION("busy after its timeout") {
    pid_t writer = ForkExclusiveTaker(path, 200);
    CHECK(WaitExit(writer) == 12);
  }
  SECTION("killed while waiting") {
    pid_t writer = ForkExclusiveTaker(path, 30000);
    REQUIRE(Eventually([&] { return TurnstileTaken(path); }));
    kill(writer, SIGKILL);
    int status = 0;
    REQUIRE(waitpid(writer, &status, 0) == writer);
    CHECK(WIFSIGNALED(status));
  }
  CHECK_FALSE(TurnstileTaken(path));
  LockTimeout short_wait(50);
  auto second_reader = FileLock::Acquire(path, LockMode::kShared, true);
  CHECK(second_reader.ok());
}

TEST_CASE("file lock: exclusive takers still exclude each other and shared holders") {
  TempDir dir;
  const std::string path = dir.path() + "/LOCK";
  auto first = FileLock::Acquire(path, LockMode::kExclusive, true);
  REQUIRE(first.ok());
  LockTimeout short_wait(50);
  auto second = FileLock::Acquire(path, LockMode::kExclusive, true);
  REQUIRE_FALSE(second.ok());
  CHECK(second.status().code() == Code::kBusy);
  auto shared = FileLock::Acquire(path, LockMode::kShared, true);
  REQUIRE_FALSE(shared.ok());
  CHECK(shared.status().code() == Code::kBusy);
  *first = FileLock();
  auto third = FileLock::Acquire(path, LockMode::kExclusive, true);
  CHECK(third.ok());
}

}  // namespace
}  // namespace gentle::testing
