#include "store/named_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "store/posix_fd.h"

namespace gentle::store {
namespace {

Status CannotRead(int error) {
  return Status(Code::kUsage, std::string("cannot read the file: ") + strerror(error));
}

Status TooLarge(size_t max_bytes) {
  return Status(Code::kUsage, "larger than " + std::to_string(max_bytes) + " bytes");
}

// `fd` read to its end, or until one byte past max_bytes (then refused), into a buffer first sized
// for `expected` bytes (a regular file's size; a guess for a pipe) and doubled as it fills.
Result<std::string> ReadUpTo(int fd, size_t max_bytes, size_t expected) {
  std::string data(std::min(expected, max_bytes) + 1, '\0');
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = read(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return CannotRead(errno);
    if (n == 0) break;
    done += static_cast<size_t>(n);
    if (done == data.size() && done <= max_bytes) data.resize(std::min(2 * done, max_bytes + 1));
  }
  if (done > max_bytes) return TooLarge(max_bytes);
  data.resize(done);
  return data;
}

}  // namespace

Result<std::string> ReadNamedInput(const std::string& path, size_t max_bytes) {
  if (path == "-") return ReadUpTo(STDIN_FILENO, max_bytes, size_t{64} << 10);
  return ReadNamedFile(path, max_bytes);
}

Result<std::string> ReadNamedFile(const std::string& path, size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) return CannotRead(errno);
  struct stat st;
  if (fstat(fd.get(), &st) != 0) return CannotRead(errno);
  if (!S_ISREG(st.st_mode)) return Status(Code::kUsage, "not a regular file");
  if (static_cast<uint64_t>(st.st_size) > max_bytes) return TooLarge(max_bytes);
  return ReadUpTo(fd.get(), max_bytes, static_cast<size_t>(st.st_size));
}

}  // namespace gentle::store
