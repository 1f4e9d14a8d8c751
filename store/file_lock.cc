#include "store/file_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>
#include <utility>

namespace gentle::store {

int LockTimeoutMillis() {
  if (const char* env = std::getenv("GENTLE_LOCK_TIMEOUT_MS"); env && *env) {
    int value = std::atoi(env);
    if (value >= 0) return value;
  }
  return 2000;
}

FileLock::FileLock(FileLock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      owner_written_(std::exchange(other.owner_written_, false)) {}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    Release();
    fd_ = std::exchange(other.fd_, -1);
    owner_written_ = std::exchange(other.owner_written_, false);
  }
  return *this;
}

FileLock::~FileLock() { Release(); }

void FileLock::Release() {
  if (fd_ >= 0) {
    // The owner record is a hint for the holder's lifetime only (gentle-ai truncates it on release
    // too), so a lock file reads the same before and after any completed command.
    if (owner_written_ && ftruncate(fd_, 0) != 0) {
      // Best effort: a stale hint is harmless, the kernel's lock is the truth.
    }
    flock(fd_, LOCK_UN);
    close(fd_);
    fd_ = -1;
  }
}

Result<FileLock> FileLock::Acquire(const std::string& path, LockMode mode, bool create) {
  int flags = O_CLOEXEC | O_NOFOLLOW | (create ? (O_RDWR | O_CREAT) : O_RDONLY);
  int fd = open(path.c_str(), flags, 0600);
  if (fd < 0) {
    if (errno == ENOENT && !create) return FileLock();
    if (errno == ELOOP) return Status(Code::kCorrupted, "lock file is a symlink: " + path);
    if (errno == EISDIR) return Status(Code::kCorrupted, "lock file is a directory: " + path);
    return Status(Code::kCorrupted, "cannot open lock file " + path + ": " + strerror(errno));
  }
  FileLock lock(fd);
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    return Status(Code::kCorrupted, "lock file is not a regular file: " + path);
  }
  const int operation = (mode == LockMode::kShared ? LOCK_SH : LOCK_EX) | LOCK_NB;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(LockTimeoutMillis());
  while (flock(fd, operation) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      return Status(Code::kInternal, "flock " + path + ": " + strerror(errno));
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return Status(Code::kBusy, "another gentle-ai process holds " + path + "; retry");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return lock;
}

Status FileLock::WriteOwner(std::string_view text) {
  if (ftruncate(fd_, 0) != 0 || pwrite(fd_, text.data(), text.size(), 0) < 0) {
    return Status(Code::kInternal, std::string("cannot write lock owner: ") + strerror(errno));
  }
  owner_written_ = true;
  return Status::Ok();
}

}  // namespace gentle::store
