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

namespace {

enum class Turnstile { kHeld, kBusy, kUnsupported };

// Sets (F_RDLCK/F_WRLCK) or clears (F_UNLCK) the turnstile: an open-file-description lock on byte
// 0 of the lock file. On Linux it is independent of flock(2) on the same file, and like flock it
// is dropped by the kernel when the descriptor is closed (also when the process dies).
Turnstile SetTurnstile(int fd, short type) {
  struct flock range {};
  range.l_type = type;
  range.l_whence = SEEK_SET;
  range.l_start = 0;
  range.l_len = 1;
  if (fcntl(fd, F_OFD_SETLK, &range) == 0) return Turnstile::kHeld;
  return errno == EAGAIN || errno == EACCES ? Turnstile::kBusy : Turnstile::kUnsupported;
}

// Polls for the flock until the deadline. flock gives a waiting exclusive lock no priority over
// new shared ones, so under a steady stream of readers a writer could wait forever. An exclusive
// taker therefore holds the turnstile (write) while it waits, and a shared taker must get the
// turnstile (read) for the moment of its own flock attempt: readers arriving after a waiting
// writer queue behind it, the readers already in drain, and the writer gets its turn. Where the
// file system has no OFD locks the turnstile is skipped: a plain flock, without that fairness.
Status WaitForFlock(int fd, LockMode mode, const std::string& path) {
  const bool exclusive = mode == LockMode::kExclusive;
  const int operation = (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(LockTimeoutMillis());
  bool writer_turn = false;  // exclusive only: this process holds the turnstile
  for (;;) {
    Turnstile turnstile = Turnstile::kHeld;
    if (!writer_turn) turnstile = SetTurnstile(fd, exclusive ? F_WRLCK : F_RDLCK);
    if (turnstile != Turnstile::kBusy) {
      writer_turn = exclusive && turnstile == Turnstile::kHeld;
      const int rc = flock(fd, operation);
      const int error = errno;
      if (turnstile == Turnstile::kHeld && (!exclusive || rc == 0)) SetTurnstile(fd, F_UNLCK);
      if (rc == 0) return Status::Ok();
      if (error != EWOULDBLOCK && error != EINTR) {
        if (writer_turn) SetTurnstile(fd, F_UNLCK);
        return Status(Code::kInternal, "flock " + path + ": " + strerror(error));
      }
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      if (writer_turn) SetTurnstile(fd, F_UNLCK);
      return Status(Code::kBusy, "another gentle-ai process holds " + path + "; retry");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace

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
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  int flags = O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | (create ? (O_RDWR | O_CREAT) : O_RDONLY);
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
  GENTLE_RETURN_IF_ERROR(WaitForFlock(fd, mode, path));
  return lock;
}

Status FileLock::WriteOwner(std::string_view text) {
  // Written over the old record, then cut to length: the file is never empty in between (a
  // holder killed here leaves an old or a new record, or one that does not parse).
  if (pwrite(fd_, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size()) ||
      ftruncate(fd_, static_cast<off_t>(text.size())) != 0) {
    return Status(Code::kInternal, std::string("cannot write lock owner: ") + strerror(errno));
  }
  owner_written_ = true;
  return Status::Ok();
}

}  // namespace gentle::store
