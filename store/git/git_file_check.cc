#include "store/git/git_file_check.h"

#include <dirent.h>
#include <fcntl.h>
#include <git2.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace gentle::store::git {
namespace {

const char* KindName(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

Status NotAFile(const std::string& path, mode_t mode) {
  return Status(Code::kCorrupted, path + " is " + KindName(mode) +
                                      ", not a file git writes (libgit2 would block opening it)")
      .WithDetail(DetailKey::kPath, path);
}

// A small git-written file (HEAD, a loose ref, `commondir`), following a final symlink as libgit2
// does: nullopt when it is absent, not a regular file or not readable. O_NONBLOCK: a FIFO swapped
// in after the check cannot block the open either.
constexpr size_t kMaxSmallGitFileBytes = 4096;

std::optional<std::string> ReadSmallGitFile(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st;
  std::optional<std::string> out;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    std::string text(kMaxSmallGitFileBytes, '\0');
    const ssize_t got = read(fd, text.data(), text.size());
    if (got >= 0) {
      text.resize(static_cast<size_t>(got));
      out = std::move(text);
    }
  }
  close(fd);
  return out;
}

std::string TrimEnd(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ' ||
                           text.back() == '\t')) {
    text.pop_back();
  }
  return text;
}

// Refs each worktree keeps in its own git directory (git's per-worktree refs); every other ref is
// in the common dir.
bool PerWorktreeRef(const std::string& name) {
  return name.find('/') == std::string::npos || name.rfind("refs/bisect/", 0) == 0 ||
         name.rfind("refs/worktree/", 0) == 0 || name.rfind("refs/rewritten/", 0) == 0;
}

}  // namespace

Status CheckGitFile(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return Status::Ok();  // absent, or libgit2 fails on it too
  if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) return Status::Ok();
  return NotAFile(path, st.st_mode);
}

Status CheckRefFile(const Repository& repo, const std::string& name) {
  return CheckGitFile(repo.common_dir() + "/" + name);
}

Status CheckRefFiles(const Repository& repo, const std::string& prefix) {
  // libgit2 descends into symlinked directories under refs/; each directory is visited once
  // (by device and inode), so a link loop ends the walk instead of repeating it.
  std::set<std::pair<dev_t, ino_t>> visited;
  std::vector<std::string> pending = {repo.common_dir() + "/" + prefix};
  while (!pending.empty()) {
    const std::string dir = std::move(pending.back());
    pending.pop_back();
    DIR* handle = opendir(dir.c_str());
    if (handle == nullptr) {
      if (errno == ENOENT || errno == ENOTDIR) continue;
      return Status(Code::kInternal, "cannot list " + dir).WithDetail(DetailKey::kPath, dir);
    }
    Status status;
    while (const dirent* entry = readdir(handle)) {
      const std::string name = entry->d_name;
      if (name == "." || name == "..") continue;
      const std::string path = (dir.back() == '/' ? dir : dir + "/") + name;
      struct stat st;
      if (stat(path.c_str(), &st) != 0) continue;  // gone, or a dangling link: not a ref
      if (S_ISDIR(st.st_mode)) {
        if (visited.emplace(st.st_dev, st.st_ino).second) pending.push_back(path);
      } else if (!S_ISREG(st.st_mode)) {
        status = NotAFile(path, st.st_mode);
        break;
      }
    }
    closedir(handle);
    if (!status.ok()) return status;
  }
  return Status::Ok();
}

Status CheckConfigFiles(const std::string& start) {
  git_buf found = GIT_BUF_INIT;
  if (git_repository_discover(&found, start.c_str(), 0, nullptr) != 0) {
    git_error_clear();
    return Status::Ok();
  }
  std::string git_dir(found.ptr, found.size);
  git_buf_dispose(&found);
  while (git_dir.size() > 1 && git_dir.back() == '/') git_dir.pop_back();
  std::string common_dir = git_dir;
  // libgit2 reads `commondir` only when it is a regular file (else the git dir is the common dir).
  const std::optional<std::string> link = ReadSmallGitFile(git_dir + "/commondir");
  if (link) {
    const std::string named = TrimEnd(*link);
    common_dir = !named.empty() && named[0] == '/' ? named : git_dir + "/" + named;
    GENTLE_RETURN_IF_ERROR(CheckGitFile(git_dir + "/gitdir"));
  }
  GENTLE_RETURN_IF_ERROR(CheckGitFile(git_dir + "/config"));
  GENTLE_RETURN_IF_ERROR(CheckGitFile(git_dir + "/config.worktree"));
  return CheckGitFile(common_dir + "/config");
}

Status CheckOpenedFiles(const std::string& git_dir, const std::string& common_dir,
                        const std::string& worktree_root) {
  GENTLE_RETURN_IF_ERROR(CheckGitFile(common_dir + "/packed-refs"));
  // HEAD, then the ref it names, and so on: libgit2 reads each loose file on the way.
  std::string name = "HEAD";
  for (int depth = 0; depth < 5; ++depth) {
    const std::string path = (PerWorktreeRef(name) ? git_dir : common_dir) + "/" + name;
    GENTLE_RETURN_IF_ERROR(CheckGitFile(path));
    const std::optional<std::string> text = ReadSmallGitFile(path);
    if (!text || text->rfind("ref: ", 0) != 0) break;
    name = TrimEnd(text->substr(5));
    if (name.empty() || name.find("..") != std::string::npos) break;
  }
  GENTLE_RETURN_IF_ERROR(CheckGitFile(common_dir + "/info/attributes"));
  if (!worktree_root.empty()) {
    GENTLE_RETURN_IF_ERROR(CheckGitFile(worktree_root + "/.gitattributes"));
  }
  return Status::Ok();
}

Status CheckAttributesFiles(const std::string& worktree_root, const std::string& path) {
  for (size_t slash = path.find('/'); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    GENTLE_RETURN_IF_ERROR(
        CheckGitFile(worktree_root + "/" + path.substr(0, slash) + "/.gitattributes"));
  }
  return Status::Ok();
}

}  // namespace gentle::store::git
