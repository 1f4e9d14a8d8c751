#include "export/patch_spool.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace gentle::exporter {
namespace {

// The directory the file is made in: $TMPDIR when absolute, else /tmp.
const char* SpoolDirectory() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && tmp[0] == '/' ? tmp : "/tmp";
}

// All of `bytes` written to `fd` at `offset`; false on any error (a short write included).
bool WriteAllAt(int fd, const char* bytes, size_t size, size_t offset) {
  while (size > 0) {
    const ssize_t n = pwrite(fd, bytes, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes += n;
    size -= static_cast<size_t>(n);
    offset += static_cast<size_t>(n);
  }
  return true;
}

// All of `bytes` written to `fd`, waiting while a non-blocking `fd` is full.
Status WriteAll(int fd, const char* bytes, size_t size) {
  while (size > 0) {
    const ssize_t n = write(fd, bytes, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd ready{fd, POLLOUT, 0};
      if (poll(&ready, 1, -1) < 0 && errno != EINTR) {
        return Status(Code::kInternal, std::string("waiting on the output: ") + strerror(errno));
      }
      continue;
    }
    if (n <= 0) {
      return Status(Code::kInternal,
                    std::string("writing the patch: ") + (n < 0 ? strerror(errno) : "no progress"));
    }
    bytes += n;
    size -= static_cast<size_t>(n);
  }
  return Status::Ok();
}

}  // namespace

PatchSpool::~PatchSpool() {
  if (fd_ >= 0) close(fd_);
}

bool PatchSpool::Open() {
  if (fd_ >= 0) return true;
  fd_ = open(SpoolDirectory(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd_ < 0) failed_ = true;
  return fd_ >= 0;
}

void PatchSpool::Offer(std::string* tail) {
  if (tail->size() < kMinSpillBytes || failed_ || !Open()) return;
  if (!WriteAllAt(fd_, tail->data(), tail->size(), size_)) {
    // The file stays open (an O_TMPFILE file lives only as long as its descriptor) and stays
    // size_ bytes long for every reader: what the failed write left past size_ is never read.
    failed_ = true;
    return;
  }
  size_ += tail->size();
  tail->clear();
}

Status PatchSpool::CopyTo(int fd, size_t from, size_t length) const {
  if (length == 0) return Status::Ok();
  if (from > size_ || length > size_ - from || fd_ < 0) {
    return Status(Code::kInternal, "the spooled patch holds fewer bytes than asked for");
  }
  constexpr size_t kBlock = size_t{64} << 10;
  char block[kBlock];
  while (length > 0) {
    const ssize_t n = pread(fd_, block, std::min(kBlock, length), static_cast<off_t>(from));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      return Status(Code::kInternal, std::string("reading the spooled patch back: ") +
                                         (n < 0 ? strerror(errno) : "end of file"));
    }
    GENTLE_RETURN_IF_ERROR(WriteAll(fd, block, static_cast<size_t>(n)));
    from += static_cast<size_t>(n);
    length -= static_cast<size_t>(n);
  }
  return Status::Ok();
}

}  // namespace gentle::exporter
