// Git-owned files that libgit2 opens, checked before it opens them.
//
// libgit2 opens a loose ref, packed-refs, the configuration, attributes files,
// objects/info/alternates, a pack index, a multi-pack-index and a loose object with a plain
// blocking open(2) and only then looks at what it opened. A FIFO at one of those paths
// blocks that open until a writer comes, which is never: the command hangs. A socket or a device
// is not a file git writes either. So before a libgit2 call that would open such a path, the path
// is stat-ed (following a final symlink, as libgit2's open does):
//   - a regular file: handed on;
//   - nothing there, or a directory (libgit2 reads neither: "not found"): handed on;
//   - anything else (a FIFO, a socket, a device, a symlink to one of those): `corrupted`,
//     details.path naming the path. Nothing is opened, so the check itself never blocks.
//
// Where the checks run (docs/reliability.md, "Git-owned files that are not files"):
//   - the configuration files: CheckConfigFiles, before Repository::Discover opens the repository
//     (libgit2's open reads them);
//   - packed-refs, the loose refs HEAD names, info/attributes and the worktree's root
//     .gitattributes: CheckOpenedFiles, in Repository::Discover before any ref is read;
//   - a subdirectory's .gitattributes: CheckAttributesFiles, before a worktree file is filtered;
//   - a ref read by name (a history ref, a fetched history ref): CheckRefFile before the lookup;
//   - a ref namespace iterated by glob (libgit2 reads every loose ref in it): CheckRefFiles;
//   - objects/info/alternates, pack files and loose objects: store/git/loose_object_guard.h.
#ifndef GENTLE_STORE_GIT_GIT_FILE_CHECK_H_
#define GENTLE_STORE_GIT_GIT_FILE_CHECK_H_

#include <string>

#include "store/git/repository.h"
#include "store/status.h"

namespace gentle::store::git {

// `path` is a regular file, a directory or absent; otherwise `corrupted` (details.path).
Status CheckGitFile(const std::string& path);

// The loose file of ref `name` ("refs/gentle-ai/reviews/<lineage>") under the common dir, as
// CheckGitFile.
Status CheckRefFile(const Repository& repo, const std::string& name);

// Every entry under the ref directory `prefix` ("refs/gentle-ai/reviews/") of the common dir,
// recursively: directories and regular files only, else `corrupted` naming the first other one.
// An absent directory is Ok. For the glob iterations, which read every loose ref they list.
Status CheckRefFiles(const Repository& repo, const std::string& prefix);

// Before libgit2 opens the repository that contains `start` (the open reads its configuration):
// the git directory git_repository_discover finds (it reads no configuration) and, for a linked
// worktree, the common dir its `commondir` file names; then `config` and `config.worktree` in the
// git directory, `config` in the common dir and a linked worktree's `gitdir` file, each as
// CheckGitFile. Ok when no repository is found: the open answers that.
Status CheckConfigFiles(const std::string& start);

// After the open, before any ref is read: packed-refs; HEAD's chain of symbolic refs (HEAD itself
// is a regular file, or libgit2 does not take the directory for a repository), each loose ref file
// on it, at most five deep, read with a bounded, non-blocking read; info/attributes in the common
// dir; and `.gitattributes` at the worktree's root (`worktree_root` empty: bare).
Status CheckOpenedFiles(const std::string& git_dir, const std::string& common_dir,
                        const std::string& worktree_root);

// The `.gitattributes` of every directory of the worktree path `path` ("a/b/c.txt": a/ and a/b/),
// as CheckGitFile: libgit2 reads them when it loads the filters of `path`. The root's is
// CheckOpenedFiles'.
Status CheckAttributesFiles(const std::string& worktree_root, const std::string& path);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_GIT_FILE_CHECK_H_
