#include "store/named_file.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>

#include "store/posix_fd.h"

namespace gentle::store {

Result<std::string> ReadNamedFile(const std::string& path, size_t max_bytes) {
  auto cannot_read = [](int error) {
    return Status(Code::kUsage, std::string("cannot read the file: ") + strerror(error));
  };
  const Status too_large(Code::kUsage, "larger than " + std::to_string(max_bytes) + " bytes");
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) return cannot_read(errno);
  struct stat st;
  if (fstat(fd.get(), &st) != 0) return cannot_read(errno);
  if (!S_ISREG(st.st_mode)) return Status(Code::kUsage, "not a regular file");
  if (static_cast<uint64_t>(st.st_size) > max_bytes) return too_large;
  // At most one byte past the limit is read.
  std::string data(std::min<size_t>(static_cast<size_t>(st.st_size), max_bytes) + 1, '\0');
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = read(fd.get(), data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return cannot_read(errno);
    if (n == 0) break;
    done += static_cast<size_t>(n);
    if (done == data.size() && done <= max_bytes) data.resize(std::min(2 * done, max_bytes + 1));
  }
  if (done > max_bytes) return too_large;
  data.resize(done);
  return data;
}

}  // namespace gentle::store
