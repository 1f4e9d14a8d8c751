// WorkspaceRows: the candidate tree of a worktree as flat rows, computed from the index and the
// files on disk without touching either.
//
// The user's index is read into a private in-memory copy (store::ReadIndexFile, or libgit2's
// git_index_open when that reader declines the file); nothing is written to it, to the worktree
// or to HEAD. While hashing, libgit2's filters are lent an in-memory index with the entries they
// look up (.gitattributes, the hashed paths) instead of parsing .git/index again. Tracked files
// whose stat data matches a non-racy index entry keep the entry's object id; others are hashed
// through the repository's filters (autocrlf, attributes). With a MemoryWrites (`held`) the new
// blobs are also kept in it (START, and STATUS measuring a candidate); without one nothing at all
// is written or kept (STATUS), and a file no filter applies to is hashed in pieces as it is read,
// so memory does not grow with its size.
#ifndef GENTLE_TRANSACTION_WORKSPACE_ROWS_H_
#define GENTLE_TRANSACTION_WORKSPACE_ROWS_H_

#include <string>
#include <vector>

#include "store/git/cache_tree_fold.h"
#include "store/git/git_util.h"
#include "store/git/memory_writes.h"
#include "store/git/repository.h"
#include "store/git/tree_rows.h"
#include "store/git/worktree_index.h"
#include "store/status.h"

namespace gentle::transaction {

enum class Projection { kWorkspace, kStaged };

// The entries of .git/index: from store::git::ReadWorktreeIndex (with its valid cache-tree
// directories), or from libgit2 when that reader declines the file (split or sparse index,
// anything unusual); then `libgit2` holds libgit2's parse and there is no cache-tree.
struct LoadedGitIndex {
  store::git::IndexPaths paths;  // the entries' paths
  std::vector<store::git::WorktreeIndexEntry> entries;
  std::vector<store::git::CacheTreeDir> cache_tree;
  store::git::GitPtr<git_index, git_index_free> libgit2;
};

// The repository's index, read only. Errors: `corrupted` when it is not a regular file or
// libgit2 cannot read it either.
Result<LoadedGitIndex> LoadGitIndex(const store::git::Repository& repo);

// The candidate's rows from `index` (LoadGitIndex of the same repository) and the disk.
// With `fold` (hashing the workspace projection: a CacheTreeFold of the same entries), a directory
// whose rows would all be its index entries (CacheTreeFold::CleanDirs) is one folded row, and the
// rows are to be finished with CacheTreeFold::Finish before they are compared or built. `held`
// (may be null) must have diverted `repo`'s own handle.
Result<store::git::TreeRows> WorkspaceRows(const store::git::Repository& repo,
                                           const LoadedGitIndex& index, Projection projection,
                                           const std::vector<std::string>& intended_untracked,
                                           store::git::MemoryWrites* held,
                                           const store::git::CacheTreeFold* fold = nullptr);

// Normalises an intended-untracked path (relative to the worktree root): refuses absolute paths,
// `..`, `.git` components and empty components with `usage`.
Result<std::string> NormalizeRepoPath(const std::string& path);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_WORKSPACE_ROWS_H_
