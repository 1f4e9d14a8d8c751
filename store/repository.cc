#include "store/repository.h"

#include <limits.h>
#include <stdlib.h>

#include <mutex>

#include "store/digests.h"

namespace gentle::store {

void EnsureLibgit2() {
  static std::once_flag once;
  std::call_once(once, [] {
    git_libgit2_init();
    // The store never follows user config for object caching decisions; keep libgit2 defaults.
  });
}

std::string LastGitError() {
  const git_error* error = git_error_last();
  return error && error->message ? error->message : "unknown error";
}

std::string CanonicalPath(const std::string& path) {
  char resolved[PATH_MAX];
  if (realpath(path.c_str(), resolved) == nullptr) return "";
  std::string out(resolved);
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

Result<git_oid> PeelRevision(git_repository* repo, const std::string& rev, git_object_t type) {
  git_object* object = nullptr;
  if (git_revparse_single(&object, repo, rev.c_str()) != 0) {
    return Status(Code::kUsage, "cannot resolve revision: " + rev);
  }
  git_object* peeled = nullptr;
  int rc = git_object_peel(&peeled, object, type);
  git_object_free(object);
  if (rc != 0) {
    return Status(Code::kUsage, "revision " + rev + " does not name a " +
                                    (type == GIT_OBJECT_TREE ? "tree" : "commit"));
  }
  git_oid oid = *git_object_id(peeled);
  git_object_free(peeled);
  return oid;
}

Result<Repository> Repository::Discover(const std::string& start_dir) {
  EnsureLibgit2();
  std::string start = CanonicalPath(start_dir);
  if (start.empty()) return Status(Code::kUsage, "cannot access directory: " + start_dir);
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, start.c_str(), 0, nullptr) != 0) {
    return Status(Code::kUsage, "not a git repository: " + start);
  }
  Repository repo;
  repo.repo_.reset(raw);
  repo.common_dir_ = CanonicalPath(git_repository_commondir(raw));
  repo.git_dir_ = CanonicalPath(git_repository_path(raw));
  if (const char* workdir = git_repository_workdir(raw); workdir && !git_repository_is_bare(raw)) {
    repo.worktree_root_ = CanonicalPath(workdir);
  }
  if (repo.common_dir_.empty() || repo.git_dir_.empty()) {
    return Status(Code::kUsage, "cannot resolve the git directories of " + start);
  }
  return repo;
}

Status Repository::RequireWorktree(std::string_view command) const {
  if (!is_bare()) return Status::Ok();
  return Status(Code::kUsage,
                std::string(command) + " needs a worktree; " + git_dir_ + " is a bare repository");
}

std::string Repository::WorktreeIdentity() const {
  return store::WorktreeIdentity(WorktreeIdentityJson(worktree_root_, common_dir_, git_dir_));
}

}  // namespace gentle::store
