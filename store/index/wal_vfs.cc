#include "store/index/wal_vfs.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>
#include <string>

namespace gentle::store::index {
namespace {

sqlite3_vfs g_vfs;
sqlite3_vfs* g_default = nullptr;

// The directory of `path` synced; false when it cannot be.
bool SyncParent(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : path.substr(0, slash);
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool synced = fsync(fd) == 0;
  ::close(fd);
  return synced;
}

// A missing `-wal` made here, durable in its directory. SQLITE_OK when the file is there (made
// here or by another process in between); an I/O error otherwise.
int MakeWal(const char* path) {
  const int fd = ::open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return errno == EEXIST ? SQLITE_OK : SQLITE_CANTOPEN;
  ::close(fd);
  return SyncParent(path) ? SQLITE_OK : SQLITE_IOERR_DIR_FSYNC;
}

int Open(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* file, int flags, int* out_flags) {
  const int kWalCreate = SQLITE_OPEN_WAL | SQLITE_OPEN_CREATE;
  if (name != nullptr && (flags & kWalCreate) == kWalCreate) {
    struct stat st;
    if (::lstat(name, &st) != 0) {
      if (errno != ENOENT) return SQLITE_CANTOPEN;
      if (const int rc = MakeWal(name); rc != SQLITE_OK) return rc;
    } else if (!S_ISREG(st.st_mode)) {
      return SQLITE_CANTOPEN;  // the index refuses such a file before it opens (database_files.h)
    }
    return g_default->xOpen(g_default, name, file, flags & ~SQLITE_OPEN_CREATE, out_flags);
  }
  return g_default->xOpen(g_default, name, file, flags, out_flags);
}

}  // namespace

const char* ExistingWalVfs() {
  static std::once_flag once;
  std::call_once(once, [] {
    g_default = sqlite3_vfs_find(nullptr);
    g_vfs = *g_default;
    g_vfs.zName = "gentle-existing-wal";
    g_vfs.xOpen = Open;
    g_vfs.pNext = nullptr;
    sqlite3_vfs_register(&g_vfs, 0);
  });
  return g_vfs.zName;
}

}  // namespace gentle::store::index
