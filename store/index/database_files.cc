#include "store/index/database_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "store/file_io.h"

namespace gentle::store::index {
namespace {

// What a non-regular file is, for the message.
const char* KindName(mode_t mode) {
  if (S_ISLNK(mode)) return "a symlink";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

// ok when `path` is missing or a regular file; `st` gets its lstat when it exists.
Status CheckOne(const std::string& path, struct stat* st, bool* exists) {
  *exists = false;
  if (lstat(path.c_str(), st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return Status::Ok();
    return Status(Code::kCorrupted, "index: cannot lstat " + path + ": " + std::strerror(errno));
  }
  if (!S_ISREG(st->st_mode)) {
    return Status(Code::kCorrupted, "index: " + path + " is " + KindName(st->st_mode) +
                                        ", not a regular file (remove it by hand)");
  }
  *exists = true;
  return Status::Ok();
}

uint32_t Be32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

// The checks SQLite's WAL recovery makes before it reads a header's salts (walIndexRecover):
// the magic number, and a page size that is a power of two from 512 to 65536.
bool RecognisedHeader(const unsigned char* h) {
  const uint32_t magic = Be32(h);
  const uint32_t page_size = Be32(h + 8);
  return (magic & 0xFFFFFFFEu) == 0x377f0682u && page_size >= 512 && page_size <= 65536 &&
         (page_size & (page_size - 1)) == 0;
}

}  // namespace

Status CheckDatabaseFileKinds(const std::string& path) {
  struct stat st;
  bool exists = false;
  GENTLE_RETURN_IF_ERROR(CheckOne(path, &st, &exists));
  for (const char* suffix : kDatabaseSideSuffixes) {
    GENTLE_RETURN_IF_ERROR(CheckOne(path + suffix, &st, &exists));
  }
  return Status::Ok();
}

Result<WalState> InspectWal(const std::string& database_path) {
  const std::string wal = database_path + "-wal";
  struct stat st;
  bool exists = false;
  GENTLE_RETURN_IF_ERROR(CheckOne(wal, &st, &exists));
  if (!exists) return WalState::kAbsent;
  if (st.st_size == 0) return WalState::kEmpty;
  if (st.st_size <= kWalHeaderSize) return WalState::kInterrupted;
  const int fd = open(wal.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return WalState::kAbsent;  // removed since the lstat
    return Status(Code::kCorrupted, "index: cannot open " + wal + ": " + std::strerror(errno));
  }
  unsigned char header[kWalHeaderSize];
  struct stat opened {};
  const bool regular = fstat(fd, &opened) == 0 && S_ISREG(opened.st_mode);
  const ssize_t got = regular ? pread(fd, header, sizeof(header), 0) : -1;
  close(fd);
  if (!regular) {
    return Status(Code::kCorrupted, "index: " + wal + " is not a regular file (remove it by hand)");
  }
  if (got < static_cast<ssize_t>(sizeof(header))) return WalState::kInterrupted;  // shrank
  return RecognisedHeader(header) ? WalState::kFrames : WalState::kUnrecognised;
}

}  // namespace gentle::store::index
