// Repository: an open libgit2 repository plus the canonical paths the store is keyed by.
//
// Discover() walks up from a directory like git does. Before any ref or object is read it refuses
// (`corrupted`) a packed-refs that is not a file and guards the loose objects
// (store/git/git_file_check.h, store/git/loose_object_guard.h): a FIFO there would block libgit2.
// Paths are absolute, symlink-resolved and carry no trailing slash (Go's filepath.Clean form),
// because they feed the worktree identity digest. A linked worktree reports its own git_dir and
// worktree root and the shared common dir. A bare repository has no worktree root;
// RequireWorktree() refuses it with `usage`.
//
// Thread-safety: a Repository, like every libgit2 object it hands out (raw(), object databases,
// blobs, trees), is used by one thread at a time. A thread that reads the repository concurrently
// opens its own handle on the git directory (as DerivePatch's helper thread does,
// export/patch_engine.h). EnsureLibgit2 may be called from any thread.
#ifndef GENTLE_STORE_GIT_REPOSITORY_H_
#define GENTLE_STORE_GIT_REPOSITORY_H_

#include <git2.h>

#include <memory>
#include <string>

#include "store/git/git_util.h"
#include "store/status.h"

namespace gentle::store::git {

class Repository {
 public:
  static Result<Repository> Discover(const std::string& start_dir);

  git_repository* raw() const { return repo_.get(); }
  bool is_bare() const { return worktree_root_.empty(); }
  const std::string& common_dir() const { return common_dir_; }
  const std::string& git_dir() const { return git_dir_; }
  const std::string& worktree_root() const { return worktree_root_; }

  Status RequireWorktree(std::string_view command) const;

  // "sha256:" + hex(sha256({"repository_root","git_common_dir","git_dir"})), docs/format.md.
  std::string WorktreeIdentity() const;

 private:
  friend void LeaveToExit(Repository repo);

  RepositoryPtr repo_;
  std::string common_dir_;
  std::string git_dir_;
  std::string worktree_root_;
};

// A process that exits once its command is done (the executables' main(), cli/app.h RunProcess)
// calls this first; from then on LeaveToExit keeps the repository it is given instead of freeing
// it, as git leaves its own structures at exit (its UNLEAK). The command's answer and every
// refusal are the same either way; only the teardown (libgit2's caches, the pack windows and
// files closed one by one) is left to the exit.
void ExitReclaimsRepositories();

// Frees `repo`, or, after ExitReclaimsRepositories, keeps its libgit2 handle reachable from a
// static until the process exits (a leak checker does not report it). One handle is kept: a
// later call frees the earlier one, so a process that runs many commands holds at most one.
void LeaveToExit(Repository repo);

// Another handle on `repo`'s git directory, for a helper thread (a handle is used by one thread
// at a time), with the same loose object guard as Discover's (store/git/loose_object_guard.h).
Result<RepositoryPtr> ReopenRepository(git_repository* repo);
// The same for the git directory `git_dir` (git_repository_path of the handle), so that the helper
// thread can open its handle while the calling thread goes on using its own.
Result<RepositoryPtr> ReopenRepository(const std::string& git_dir);

// Resolves a revision expression and peels it to `type` (GIT_OBJECT_COMMIT or GIT_OBJECT_TREE);
// `usage` when it does not resolve or does not peel (also when an object on the way does not hash
// to its id: every object read is checked). A full object id or a plain reference name is
// resolved as revparse resolves it (the id, else git_reference_dwim) and peeled through checked
// reads of its commits and tags; anything else, and any failure of that path, goes to revparse
// through store/git/verified_view.h, whose answer or refusal is then the answer.
Result<git_oid> PeelRev(git_repository* repo, const std::string& rev, git_object_t type);

// The merge base of two commits, every commit read hash-checked (store/git/verified_view.h);
// `usage` naming `what` when there is none.
Result<git_oid> MergeBase(git_repository* repo, const git_oid& a, const git_oid& b,
                          const std::string& what);

// Initialises libgit2 once per process, with libgit2's own object hash check off (objects are
// checked by store/git/object_reader.h; see the rule there).
void EnsureLibgit2();

// Canonical absolute path: realpath, without a trailing slash. Empty on failure.
std::string CanonicalPath(const std::string& path);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_REPOSITORY_H_
