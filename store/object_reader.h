// ObjectReader: reads git objects and checks, with OpenSSL's SHA-1, that their bytes hash to the id
// they were asked for: SHA-1("<type> <size>\0" + data) == id.
//
// The rule (issue 6, docs/performance.md): EnsureLibgit2 (store/repository.h) switches libgit2's
// own check (GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, collision-detecting SHA-1, several times
// slower than OpenSSL's on this hardware) off once, process-wide, before any repository is opened;
// it is never toggled afterwards, so no thread ever sees it change. In exchange every object read
// whose bytes reach an answer goes through this file or through a verified view
// (store/verified_view.h, for libgit2's graph walks: revparse, peel, merge-base):
//   - ReadObject: the raw object (trees are parsed from it by store/raw_tree.h);
//   - LookupBlob: a git_blob (what git_diff_blobs needs), checked over its raw content, which is
//     the whole object's data. Blobs are not in libgit2's object cache by default; a cached one is
//     checked again anyway, so the cache never carries an unchecked object into an answer.
// Nothing else in the code base may call git_*_lookup, git_odb_read* or git_tree_walk.
//
// A replaced or corrupted object (bytes that do not hash to its id), a missing one, or one of
// another type is refused with kObjectsMissing (details.object), the code DESIGN.md section 8 gives
// an object that is not there: the object with that id is not to be had. Other read failures
// (zlib, I/O) are kInternal with libgit2's message, as before; callers reading trees report every
// failure as kObjectsMissing, as they always did.
//
// Only SHA-1 object ids: libgit2 1.5 cannot open a repository with extensions.objectformat =
// sha256 at all (Repository::Discover refuses it as `usage`), so no SHA-256 object reaches here.
#ifndef GENTLE_STORE_OBJECT_READER_H_
#define GENTLE_STORE_OBJECT_READER_H_

#include <git2.h>

#include <string_view>

#include "store/git_ptr.h"
#include "store/status.h"

namespace gentle::store {

using OdbObjectPtr = GitPtr<git_odb_object, git_odb_object_free>;
using OdbPtr = GitPtr<git_odb, git_odb_free>;
using BlobPtr = GitPtr<git_blob, git_blob_free>;

// The object id git gives `data` as an object of `type`: SHA-1("<type> <size>\0" + data), by
// OpenSSL (SHA-NI where the CPU has it) rather than libgit2's collision-detecting SHA-1, which is
// several times slower. Only for ids we compute; objects written to the database are hashed by
// libgit2 as it writes them.
git_oid ObjectId(git_object_t type, std::string_view data);

// True when ObjectId(type, data) is `id`.
bool ObjectHashMatches(const git_oid& id, git_object_t type, std::string_view data);

// The object database of `repo`; kInternal when libgit2 cannot open it.
Result<OdbPtr> RepositoryOdb(git_repository* repo);

// The object `id` of type `type` from `odb`, its hash checked.
Result<OdbObjectPtr> ReadObject(git_odb* odb, const git_oid& id, git_object_t type);

// The blob `id` from `repo`, its hash checked.
Result<BlobPtr> LookupBlob(git_repository* repo, const git_oid& id);

// Sets libgit2's process-wide options for the rule above; EnsureLibgit2 calls it once.
void DisableLibgit2HashCheck();

}  // namespace gentle::store

#endif  // GENTLE_STORE_OBJECT_READER_H_
