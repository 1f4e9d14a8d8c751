#include "store/git/file_inflater.h"

#include <unistd.h>

#include <cerrno>

namespace gentle::store::git {

FileInflater::~FileInflater() {
  if (inflating_) inflateEnd(&z_);
  if (fd_ >= 0) close(fd_);
}

bool FileInflater::Start(int fd, uint64_t offset) {
  fd_ = fd;
  if (offset > static_cast<uint64_t>(INT64_MAX)) return false;
  if (lseek(fd_, static_cast<off_t>(offset), SEEK_SET) < 0) return false;
  if (inflateInit(&z_) != Z_OK) return false;
  inflating_ = true;
  return true;
}

ssize_t FileInflater::Inflate(unsigned char* out, size_t n) {
  z_.next_out = out;
  z_.avail_out = static_cast<uInt>(n);
  while (z_.avail_out > 0 && !ended_) {
    if (z_.avail_in == 0) {
      ssize_t got;
      do {
        got = ::read(fd_, input_, sizeof input_);
      } while (got < 0 && errno == EINTR);
      if (got < 0) return -1;
      if (got == 0) break;  // the file ended before the zlib stream did
      z_.next_in = input_;
      z_.avail_in = static_cast<uInt>(got);
    }
    const int rc = inflate(&z_, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      ended_ = true;
    } else if (rc != Z_OK) {
      return -1;
    }
  }
  return static_cast<ssize_t>(n - z_.avail_out);
}

}  // namespace gentle::store::git
