#include "store/file_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/fault_point.h"
#include "store/file_io.h"
#include "store/posix_fd.h"

namespace gentle::store {

Status EnsureDirectory(const std::string& base, const std::string& path, mode_t mode) {
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(base, path));
  size_t pos = base.size();
  while (pos < path.size()) {
    size_t next = path.find('/', pos + 1);
    if (next == std::string::npos) next = path.size();
    std::string prefix = path.substr(0, next);
    PathKind kind = KindOf(prefix);
    if (kind == PathKind::kMissing) {
      if (mkdir(prefix.c_str(), mode) != 0 && errno != EEXIST) {
        return ErrnoStatus(Code::kInternal, "cannot create directory", prefix);
      }
      GENTLE_RETURN_IF_ERROR(SyncDirectory(ParentOf(prefix)));
      kind = KindOf(prefix);
    }
    if (kind != PathKind::kDirectory) {
      return Status(Code::kCorrupted, "store path component is not a directory: " + prefix);
    }
    pos = next;
  }
  return Status::Ok();
}

Status SyncDirectory(const std::string& dir) {
  Fd fd(open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0) return ErrnoStatus(Code::kInternal, "cannot open directory", dir);
  if (fsync(fd.get()) != 0) return ErrnoStatus(Code::kInternal, "cannot fsync directory", dir);
  return Status::Ok();
}

Status WriteFileAtomic(const std::string& path, std::string_view bytes, mode_t mode) {
  const std::string dir = ParentOf(path);
  std::string temp = dir + "/.atomic-XXXXXX";
  Fd fd(mkostemp(temp.data(), O_CLOEXEC));
  if (fd.get() < 0) return ErrnoStatus(Code::kInternal, "cannot create temporary file in", dir);
  auto fail = [&](const std::string& what) {
    Status st = ErrnoStatus(Code::kInternal, what, temp);
    unlink(temp.c_str());
    return st;
  };
  if (fchmod(fd.get(), mode) != 0) return fail("cannot chmod");
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail("cannot write");
    done += static_cast<size_t>(n);
  }
  if (fsync(fd.get()) != 0) return fail("cannot fsync");
  close(fd.release());
  FaultPoint("atomic-write:before-rename");
  if (rename(temp.c_str(), path.c_str()) != 0) return fail("cannot rename into place");
  FaultPoint("atomic-write:before-dir-sync");
  return SyncDirectory(dir);
}

Status RenameDurable(const std::string& from, const std::string& to) {
  if (rename(from.c_str(), to.c_str()) != 0)
    return ErrnoStatus(Code::kInternal, "cannot rename", from);
  GENTLE_RETURN_IF_ERROR(SyncDirectory(ParentOf(from)));
  if (ParentOf(from) != ParentOf(to)) GENTLE_RETURN_IF_ERROR(SyncDirectory(ParentOf(to)));
  return Status::Ok();
}

Status RemoveTree(const std::string& path) {
  PathKind kind = KindOf(path);
  if (kind == PathKind::kMissing) return Status::Ok();
  if (kind == PathKind::kDirectory) {
    GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> entries, ListDirectory(path));
    for (const std::string& name : entries) GENTLE_RETURN_IF_ERROR(RemoveTree(path + "/" + name));
    if (rmdir(path.c_str()) != 0)
      return ErrnoStatus(Code::kInternal, "cannot remove directory", path);
  } else if (unlink(path.c_str()) != 0) {
    return ErrnoStatus(Code::kInternal, "cannot remove", path);
  }
  return Status::Ok();
}

}  // namespace gentle::store
