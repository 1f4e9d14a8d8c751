// FileLock: an flock(2) held on a lock file for the lifetime of the object.
//
// Acquisition never blocks indefinitely: it polls LOCK_NB every 10 ms and gives up with `busy`
// (safe to retry) after the timeout, 2 s by default (GENTLE_LOCK_TIMEOUT_MS overrides it, for
// tests). A waiting exclusive taker is not starved by shared ones arriving after it: it holds a
// turnstile (an OFD lock on byte 0 of the same file) that new shared takers must pass. The lock
// file must be a regular file; a directory, a symlink or anything else there is `corrupted`. The
// kernel's ownership is the truth: a crashed holder releases the lock and the turnstile.
#ifndef GENTLE_STORE_FILE_LOCK_H_
#define GENTLE_STORE_FILE_LOCK_H_

#include <string>

#include "store/status.h"

namespace gentle::store {

enum class LockMode { kShared, kExclusive };

class FileLock {
 public:
  FileLock() = default;
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

  // create=false: an absent lock file yields an unheld FileLock (nothing to protect, nothing
  // written), so read paths never create files.
  static Result<FileLock> Acquire(const std::string& path, LockMode mode, bool create);

  bool held() const { return fd_ >= 0; }
  // Replaces the file's content with `text` (the writer lock's owner record); the file is
  // truncated again when the lock is released.
  Status WriteOwner(std::string_view text);

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  void Release();
  int fd_ = -1;
  bool owner_written_ = false;
};

// The configured timeout in milliseconds.
int LockTimeoutMillis();

}  // namespace gentle::store

#endif  // GENTLE_STORE_FILE_LOCK_H_
