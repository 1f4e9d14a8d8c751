// Fd: an owned POSIX file descriptor, closed when the object goes; ErrnoStatus: a failed system
// call as a Status naming what failed, the path and strerror(errno). For the .cc files of the
// store that make system calls (store/file_io.cc, store/file_write.cc).
#ifndef GENTLE_STORE_POSIX_FD_H_
#define GENTLE_STORE_POSIX_FD_H_

#include <string.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <utility>

#include "store/status.h"

namespace gentle::store {

inline Status ErrnoStatus(Code code, const std::string& what, const std::string& path) {
  return Status(code, what + " " + path + ": " + strerror(errno));
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

}  // namespace gentle::store

#endif  // GENTLE_STORE_POSIX_FD_H_
