// VerifiedView: a second handle on a repository whose object database checks every object it
// hands out with store/git/object_reader.h's hash check, for the libgit2 operations that read
// objects inside libgit2 where no caller can check them: revision parsing (`HEAD~2`, `v1.0^{tree}`,
// `HEAD:dir`), peeling and merge-base walks. libgit2's own check is off process-wide (see
// store/git/object_reader.h), so these go through a view instead.
//
// The view's object database has one backend, which reads from the original repository's object
// database (unchecked by libgit2), checks the id, and passes a copy on; a mismatch is GIT_EMISMATCH
// with a message naming the object, so the libgit2 call fails as it did with libgit2's own check
// on. Header reads and existence checks pass through (they hand out no content). The view is
// opened by the original's git directory (refs, config, worktree HEAD as the original sees them).
// It cannot write objects. It costs a repository open (config parse) per use: for a few revisions
// per command, not for hot paths (those use ReadObject and LookupBlob directly). A view, like the
// repository it was opened from, is used by one thread at a time.
#ifndef GENTLE_STORE_GIT_VERIFIED_VIEW_H_
#define GENTLE_STORE_GIT_VERIFIED_VIEW_H_

#include <git2.h>

#include <memory>

#include "store/git/git_util.h"
#include "store/status.h"

namespace gentle::store::git {

// kInternal when the view cannot be built.
Result<RepositoryPtr> OpenVerifiedView(git_repository* repo);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_VERIFIED_VIEW_H_
