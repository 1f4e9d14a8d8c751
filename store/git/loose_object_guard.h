// LooseObjectGuard: keeps libgit2 from opening a loose object that is not a regular file.
//
// libgit2's loose-object backend opens `objects/<2 hex>/<38 hex>` with a blocking open(2) to read
// an object or its header: a FIFO there (or a symlink to one) blocks the command forever. The
// guard is one more backend of a repository's object database, consulted after the packs and
// before the loose objects (kGuardPriority: libgit2 keeps backends of equal priority in the order
// they were added, so a packed object is found without the guard): for every read, header read and
// prefix read it stats the object's loose path in each object directory the database reads (the
// repository's objects/ and its alternates, as deep as libgit2 follows them) with CheckGitFile
// (store/git/git_file_check.h). A path that is not a regular file, a directory or absent fails the
// read with GIT_EINVALID and a message naming the path; otherwise the guard answers "not found" and
// libgit2 asks the next backend, which reads the object as before. The guard holds no objects and
// writes none.
//
// libgit2 does not stop at a failing backend when it opens a read stream, so a stream
// (BlobStream::Open) asks CheckLooseObject first.
//
// Before the database is loaded, objects/info/alternates, objects/info/commit-graph,
// objects/pack/multi-pack-index and every objects/pack/*.idx and *.pack (of the repository and of
// each alternate) are checked the same way: libgit2 opens them with a blocking open too.
#ifndef GENTLE_STORE_GIT_LOOSE_OBJECT_GUARD_H_
#define GENTLE_STORE_GIT_LOOSE_OBJECT_GUARD_H_

#include <git2.h>

#include <string>
#include <vector>

#include "store/status.h"

namespace gentle::store::git {

inline constexpr int kGuardPriority = 2;  // libgit2's own backends: 1 (loose) and 2 (packs)

// Checks the alternates files and adds the guard to `repo`'s object database (loading it). Once
// per repository handle; `corrupted` (details.path) when an alternates file is not a file.
Status GuardLooseObjects(git_repository* repo);

// `corrupted` (details.path, details.object) when `odb` has a guard and a loose path of `id` is
// not a regular file; Ok otherwise.
Status CheckLooseObject(git_odb* odb, const git_oid& id);

// Adds to `overlay` (a database that reads `real` through, store/git/memory_writes.h) a guard of
// `real`'s object directories, consulted after the backends `overlay` already has of the same
// priority; none when `real` has no guard. So a stream or LooseObjectFile through the overlay
// finds the loose files the real database reads.
Status GuardOverlay(git_odb* overlay, git_odb* real);

// The loose file of `id` in the first of the guard's object directories (the repository's, then
// its alternates, as libgit2 searches them) that holds it as a regular file; "" when none does or
// `odb` has no guard.
std::string LooseObjectFile(git_odb* odb, const git_oid& id);

// The guard's object directories (the repository's objects/, then its alternates, as libgit2
// searches them); empty when `odb` has no guard. Where store/git/object_file_stream.h looks for
// packs.
std::vector<std::string> GuardedObjectDirs(git_odb* odb);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_LOOSE_OBJECT_GUARD_H_
