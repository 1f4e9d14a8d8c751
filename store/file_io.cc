#include "store/file_io.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "store/posix_fd.h"

namespace gentle::store {

std::string ParentOf(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

PathKind KindOf(const std::string& path) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0) return PathKind::kMissing;
  if (S_ISLNK(st.st_mode)) return PathKind::kSymlink;
  if (S_ISDIR(st.st_mode)) return PathKind::kDirectory;
  if (S_ISREG(st.st_mode)) return PathKind::kFile;
  return PathKind::kOther;
}

Result<PathKind> StorePathKinds::Check(const std::string& path) {
  if (path.compare(0, base_.size(), base_) != 0) {
    return Status(Code::kInternal, "store path outside its base: " + path);
  }
  PathKind kind = PathKind::kDirectory;
  for (size_t pos = base_.size(); pos < path.size();) {
    size_t next = path.find('/', pos + 1);
    if (next == std::string::npos) next = path.size();
    const std::string_view prefix(path.data(), next);
    kind = KindOnce(prefix);
    if (kind == PathKind::kSymlink) {
      return Status(Code::kCorrupted, "store path component is a symlink: " + std::string(prefix));
    }
    if (kind == PathKind::kMissing) return kind;
    pos = next;
  }
  return kind;
}

PathKind StorePathKinds::KindOnce(std::string_view path) {
  for (const auto& [seen, kind] : seen_) {
    if (seen == path) return kind;
  }
  std::string owned(path);
  const PathKind kind = KindOf(owned);
  seen_.emplace_back(std::move(owned), kind);
  return kind;
}

Status CheckNoSymlinks(const std::string& base, const std::string& path) {
  return StorePathKinds(base).Check(path).status();
}

std::string FileHeader(const std::string& path, size_t n) {
  std::string out(n, '\0');
  int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return "";
  struct stat st;
  ssize_t got = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? pread(fd, out.data(), n, 0) : -1;
  close(fd);
  out.resize(got > 0 ? static_cast<size_t>(got) : 0);
  return out;
}

Result<std::string> ReadFileLimited(const std::string& path, size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  Fd fd(open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) {
    if (errno == ENOENT) return Status(Code::kNotFound, "no such file: " + path);
    if (errno == ELOOP) return Status(Code::kCorrupted, "store file is a symlink: " + path);
    return ErrnoStatus(Code::kCorrupted, "cannot read", path);
  }
  struct stat st;
  if (fstat(fd.get(), &st) != 0) return ErrnoStatus(Code::kCorrupted, "cannot stat", path);
  if (!S_ISREG(st.st_mode)) return Status(Code::kCorrupted, "not a regular file: " + path);
  if (static_cast<size_t>(st.st_size) > max_bytes) {
    return Status(Code::kCorrupted,
                  "file exceeds " + std::to_string(max_bytes) + " bytes: " + path);
  }
  std::string data;
  data.resize(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = read(fd.get(), data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoStatus(Code::kCorrupted, "cannot read", path);
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  data.resize(done);
  return data;
}

Result<std::vector<std::string>> ListDirectory(const std::string& dir) {
  DIR* handle = opendir(dir.c_str());
  if (handle == nullptr) {
    if (errno == ENOENT) return Status(Code::kNotFound, "no such directory: " + dir);
    return ErrnoStatus(Code::kCorrupted, "cannot list", dir);
  }
  std::vector<std::string> names;
  while (dirent* entry = readdir(handle)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(std::move(name));
  }
  closedir(handle);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace gentle::store
