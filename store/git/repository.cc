#include "store/git/repository.h"

#include <limits.h>
#include <stdlib.h>

#include <mutex>

#include "store/digests.h"
#include "store/git/git_file_check.h"
#include "store/git/loose_object_guard.h"
#include "store/git/object_reader.h"
#include "store/git/verified_view.h"

namespace gentle::store::git {

void EnsureLibgit2() {
  static std::once_flag once;
  std::call_once(once, [] {
    git_libgit2_init();
    // Before any repository is opened and any thread started, never changed afterwards: objects
    // are hash-checked by store/git/object_reader.h instead (OpenSSL SHA-1; libgit2's collision-
    // detecting SHA-1 was 44% of a large export). The store never follows user config for object
    // caching decisions; keep libgit2's defaults.
    DisableLibgit2HashCheck();
  });
}

std::string CanonicalPath(const std::string& path) {
  char resolved[PATH_MAX];
  if (realpath(path.c_str(), resolved) == nullptr) return "";
  std::string out(resolved);
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

namespace {

// `id` is in `repo`'s object database, as a tree (its header only).
bool IsTree(git_repository* repo, const git_oid& id) {
  git_odb* odb = nullptr;
  if (git_repository_odb(&odb, repo) != 0) return false;
  size_t size = 0;
  git_object_t type = GIT_OBJECT_INVALID;
  const int rc = git_odb_read_header(&size, &type, odb, &id);
  git_odb_free(odb);
  return rc == 0 && type == GIT_OBJECT_TREE;
}

}  // namespace

Result<git_oid> PeelRev(git_repository* repo, const std::string& rev, git_object_t type) {
  // Every object revparse and peel read (commits, tags, trees) is hash-checked by the view.
  GENTLE_ASSIGN_OR_RETURN(RepositoryPtr view, OpenVerifiedView(repo));
  git_object* object = nullptr;
  if (git_revparse_single(&object, view.get(), rev.c_str()) != 0) {
    return Status(Code::kUsage, "cannot resolve revision: " + rev);
  }
  if (type == GIT_OBJECT_TREE) {
    // A commit names its tree by id: only the id is asked for, so the tree is not read, parsed
    // and hash-checked whole (a root tree of git.git is ~12% of a small verify's instructions);
    // its header proves that it is there and is a tree. Whoever reads the tree later reads it
    // through a hash check.
    git_object* commit = nullptr;
    if (git_object_peel(&commit, object, GIT_OBJECT_COMMIT) == 0) {
      const git_oid tree = *git_commit_tree_id(reinterpret_cast<const git_commit*>(commit));
      git_object_free(commit);
      git_object_free(object);
      if (!IsTree(view.get(), tree)) {
        return Status(Code::kUsage, "revision " + rev + " does not name a tree");
      }
      return tree;
    }
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

Result<git_oid> MergeBase(git_repository* repo, const git_oid& a, const git_oid& b,
                          const std::string& what) {
  GENTLE_ASSIGN_OR_RETURN(RepositoryPtr view, OpenVerifiedView(repo));
  git_oid base;
  if (git_merge_base(&base, view.get(), &a, &b) != 0) {
    return Status(Code::kUsage, "no merge base between " + what);
  }
  return base;
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
  // Before libgit2 reads a ref (every ref lookup may read packed-refs) or an object.
  GENTLE_RETURN_IF_ERROR(CheckGitFile(repo.common_dir_ + "/packed-refs"));
  GENTLE_RETURN_IF_ERROR(GuardLooseObjects(raw));
  return repo;
}

Result<RepositoryPtr> ReopenRepository(git_repository* repo) {
  git_repository* opened = nullptr;
  if (git_repository_open_ext(&opened, git_repository_path(repo), GIT_REPOSITORY_OPEN_NO_SEARCH,
                              nullptr) != 0) {
    return Status(Code::kInternal, "cannot reopen the repository: " + LastGitError());
  }
  RepositoryPtr owned(opened);
  GENTLE_RETURN_IF_ERROR(GuardLooseObjects(opened));
  return owned;
}

Status Repository::RequireWorktree(std::string_view command) const {
  if (!is_bare()) return Status::Ok();
  return Status(Code::kUsage,
                std::string(command) + " needs a worktree; " + git_dir_ + " is a bare repository");
}

std::string Repository::WorktreeIdentity() const {
  return store::WorktreeIdentity(WorktreeIdentityJson(worktree_root_, common_dir_, git_dir_));
}

}  // namespace gentle::store::git
