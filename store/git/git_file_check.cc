#include "store/git/git_file_check.h"

#include <dirent.h>
#include <sys/stat.h>

#include <cerrno>
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
      .WithDetail("path", path);
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
      return Status(Code::kInternal, "cannot list " + dir).WithDetail("path", dir);
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

}  // namespace gentle::store::git
