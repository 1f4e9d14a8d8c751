// Git-owned files that libgit2 opens, checked before it opens them.
//
// libgit2 opens a loose ref, packed-refs, objects/info/alternates and a loose object with a
// plain blocking open(2) and only then looks at what it opened. A FIFO at one of those paths
// blocks that open until a writer comes, which is never: the command hangs. A socket or a device
// is not a file git writes either. So before a libgit2 call that would open such a path, the path
// is stat-ed (following a final symlink, as libgit2's open does):
//   - a regular file: handed on;
//   - nothing there, or a directory (libgit2 reads neither: "not found"): handed on;
//   - anything else (a FIFO, a socket, a device, a symlink to one of those): `corrupted`,
//     details.path naming the path. Nothing is opened, so the check itself never blocks.
//
// Where the checks run (docs/reliability.md, "Git-owned files that are not files"):
//   - packed-refs: Repository::Discover, before any ref is read;
//   - a ref read by name (a history ref, a fetched history ref): CheckRefFile before the lookup;
//   - a ref namespace iterated by glob (libgit2 reads every loose ref in it): CheckRefFiles;
//   - objects/info/alternates and loose objects: store/git/loose_object_guard.h.
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

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_GIT_FILE_CHECK_H_
