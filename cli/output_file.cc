#include "cli/output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <optional>

#include "store/file_io.h"
#include "store/file_write.h"
#include "store/posix_fd.h"

namespace gentle::cli {
namespace {

constexpr mode_t kNewFileMode = 0644;

// What a non-regular directory entry is, in the words of the refusal.
std::string_view KindWords(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

Status Refusal(const std::string& path, std::string_view what) {
  return Status(Code::kUsage, "--output " + path + " is " + std::string(what) +
                                  ": --output writes only to a regular file or a new path; "
                                  "nothing written");
}

// Something else was put at `path` between its inspection and the rename.
Status Changed(const std::string& path) {
  return Status(Code::kUsage,
                "--output " + path + " changed while the output was written; nothing written");
}

Status CannotWrite(const std::string& what, const std::string& path) {
  return store::ErrnoStatus(Code::kUsage, "cannot write --output: " + what, path);
}

// What is at `path` now: nothing (nullopt), or its lstat. `usage` for anything but a regular file.
Result<std::optional<struct stat>> Inspect(const std::string& path) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return std::optional<struct stat>();
    return CannotWrite("cannot inspect", path);
  }
  if (!S_ISREG(st.st_mode)) return Refusal(path, KindWords(st.st_mode));
  return std::optional<struct stat>(st);
}

bool SameFile(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// The bytes in a new temporary file in `dir` with `mode`, fsync'd; its path.
Result<std::string> WriteTemporary(const std::string& dir, std::string_view bytes, mode_t mode) {
  std::string temp = dir + "/.atomic-XXXXXX";
  store::Fd fd(mkostemp(temp.data(), O_CLOEXEC));
  if (fd.get() < 0) return CannotWrite("cannot create a temporary file in", dir);
  auto fail = [&](const std::string& what) {
    Status st = CannotWrite(what, temp);
    unlink(temp.c_str());
    return st;
  };
  if (fchmod(fd.get(), mode) != 0) return fail("cannot chmod");
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail("cannot write");
    done += static_cast<size_t>(n);
  }
  if (fsync(fd.get()) != 0) return fail("cannot fsync");
  if (close(fd.release()) != 0) return fail("cannot close");
  return temp;
}

// `temp` to the new path `path`, never replacing what may have appeared there since it was seen
// missing. Removes `temp` when it fails.
Status PlaceNew(const std::string& temp, const std::string& path) {
  if (renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0) {
    return Status::Ok();
  }
  if (errno == EINVAL || errno == ENOSYS) {  // no RENAME_NOREPLACE here: link does not replace
    if (link(temp.c_str(), path.c_str()) == 0) {
      unlink(temp.c_str());
      return Status::Ok();
    }
  }
  Status st = errno == EEXIST ? Changed(path) : CannotWrite("cannot rename into place", path);
  unlink(temp.c_str());
  return st;
}

// `temp` in place of the regular file `path` inspected as `seen`, never replacing anything else
// put there since. Removes `temp` (and only it) when it fails.
Status PlaceOver(const std::string& temp, const std::string& path, const struct stat& seen) {
  if (renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, path.c_str(), RENAME_EXCHANGE) == 0) {
    struct stat out;
    if (lstat(temp.c_str(), &out) == 0 && S_ISREG(out.st_mode) && SameFile(out, seen)) {
      unlink(temp.c_str());
      return Status::Ok();
    }
    // Swapped in meanwhile: put it back as it was.
    if (renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, path.c_str(), RENAME_EXCHANGE) != 0) {
      return CannotWrite("cannot restore what was put at", path);
    }
    unlink(temp.c_str());
    return Changed(path);
  }
  if (errno != EINVAL && errno != ENOSYS) {
    Status st = CannotWrite("cannot rename into place", path);
    unlink(temp.c_str());
    return st;
  }
  auto again = Inspect(path);
  if (!again.ok() || !*again || !SameFile(**again, seen)) {
    unlink(temp.c_str());
    return again.ok() ? Changed(path) : again.status();
  }
  if (rename(temp.c_str(), path.c_str()) != 0) {
    Status st = CannotWrite("cannot rename into place", path);
    unlink(temp.c_str());
    return st;
  }
  return Status::Ok();
}

}  // namespace

Status WriteOutputFile(const std::string& path, std::string_view bytes) {
  if (path.empty() || path.back() == '/') return Refusal(path, "a directory name");
  GENTLE_ASSIGN_OR_RETURN(std::optional<struct stat> seen, Inspect(path));
  const std::string dir = store::ParentOf(path);
  const mode_t mode = seen ? (seen->st_mode & 0777) : kNewFileMode;
  GENTLE_ASSIGN_OR_RETURN(std::string temp, WriteTemporary(dir, bytes, mode));
  GENTLE_RETURN_IF_ERROR(seen ? PlaceOver(temp, path, *seen) : PlaceNew(temp, path));
  Status synced = store::SyncDirectory(dir);
  if (!synced.ok()) return Status(Code::kUsage, "cannot write --output: " + synced.message());
  return Status::Ok();
}

}  // namespace gentle::cli
