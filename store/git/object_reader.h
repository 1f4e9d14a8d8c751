// ObjectReader: reads git objects and checks, with OpenSSL's SHA-1, that their bytes hash to the id
// they were asked for: SHA-1("<type> <size>\0" + data) == id.
//
// The rule (docs/performance.md): EnsureLibgit2 (store/git/repository.h) switches libgit2's
// own check (GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, collision-detecting SHA-1, several times
// slower than OpenSSL's on this hardware) off once, process-wide, before any repository is opened;
// it is never toggled afterwards, so no thread ever sees it change. In exchange every object read
// whose bytes reach an answer goes through this file or through a verified view
// (store/git/verified_view.h, for libgit2's graph walks: revparse, peel, merge-base):
//   - ReadObject: the raw object (trees are parsed from it by store/git/raw_tree.h);
//   - LookupBlob: a git_blob (what git_diff_blobs needs), checked over its raw content, which is
//     the whole object's data. Blobs are not in libgit2's object cache by default; a cached one is
//     checked again anyway, so the cache never carries an unchecked object into an answer.
//   - ReadObjectHeader: an object's type and size from its header, without inflating its data.
//     Unchecked (nothing but the header is read): a size may only ever decide a refusal, never an
//     answer. A header that lies belongs to an object that does not hash to its id, which is
//     refused anyway, so such a size can turn one refusal into another, never an answer into one.
//   - BlobStream: a loose blob inflated in pieces (libgit2 streams only loose objects), checked
//     when its last byte has been read (Finish); bytes read before that carry the same caveat as a
//     header's size.
// Nothing else in the code base may call git_*_lookup, git_odb_read*, git_odb_open_rstream or
// git_tree_walk.
//
// A replaced or corrupted object (bytes that do not hash to its id), a missing one, or one of
// another type is refused with kObjectsMissing (details.object), the code docs/engine.md gives
// an object that is not there: the object with that id is not to be had. A loose object that is
// not a regular file (a FIFO: store/git/loose_object_guard.h) is kCorrupted naming its path
// (details.path). Other read failures (zlib, I/O) are kInternal with libgit2's message; callers
// reading trees report every failure as kObjectsMissing.
//
// Thread-safety: the functions keep no state between calls; a call uses only the handles it is
// given, and those (git_repository, git_odb, a BlobStream) are used by one thread at a time. Two
// threads read concurrently through handles of their own (export/patch_engine.h).
//
// Only SHA-1 object ids: libgit2 1.5 cannot open a repository with extensions.objectformat =
// sha256 at all (Repository::Discover refuses it as `usage`), so no SHA-256 object reaches here.
#ifndef GENTLE_STORE_GIT_OBJECT_READER_H_
#define GENTLE_STORE_GIT_OBJECT_READER_H_

#include <git2.h>

#include <cstdint>
#include <optional>
#include <string_view>

#include "store/git/git_util.h"
#include "store/git/object_file_stream.h"
#include "store/git/object_hash_stream.h"
#include "store/status.h"

namespace gentle::store::git {

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

inline constexpr uint64_t kNoSizeLimit = UINT64_MAX;

// The object `id` of type `type` from `odb`, its hash checked. Given `max_bytes`, the object's
// header is read first and an object larger than that is refused before its data is inflated:
// kCorrupted naming the object, its size and the limit (details object, size, limit). The size
// comes from the unchecked header (see ReadObjectHeader): it can only ever cause a refusal.
Result<OdbObjectPtr> ReadObject(git_odb* odb, const git_oid& id, git_object_t type,
                                uint64_t max_bytes = kNoSizeLimit);

// The blob `id` from `repo`, its hash checked.
Result<BlobPtr> LookupBlob(git_repository* repo, const git_oid& id);

struct ObjectHeader {
  git_object_t type;
  uint64_t size;
};

// The type and size `odb` records for `id`; kObjectsMissing (reason missing) when it has none,
// kInternal for other read failures.
Result<ObjectHeader> ReadObjectHeader(git_odb* odb, const git_oid& id);

// ReadObjectHeader, and kCorrupted (details object, size, limit) for an object larger than
// `max_bytes`: the refusal ReadObject gives it.
Result<ObjectHeader> ReadObjectHeaderWithin(git_odb* odb, const git_oid& id, uint64_t max_bytes);

using OdbStreamPtr = GitPtr<git_odb_stream, git_odb_stream_free>;

class BlobStream {
 public:
  // The blob `id` as a stream: from its loose file, else from a pack of the guard's object
  // directories that holds it whole (store/git/object_file_stream.h); nullopt when neither can
  // stream it as a blob (a delta, missing, another type, no guard): LookupBlob then reads it whole
  // and reports what is wrong.
  static std::optional<BlobStream> Open(git_odb* odb, const git_oid& id);

  uint64_t size() const { return size_; }
  uint64_t consumed() const { return read_; }

  // Up to `n` bytes into `buffer`, never past size(); 0 once size() bytes have been read.
  // kInternal when the object's data fails to inflate or ends before its declared size.
  Result<size_t> Read(char* buffer, size_t n);

  // After size() bytes were read: Ok when the object ends there and its bytes hash to its id;
  // kObjectsMissing (reason hash_mismatch) when they do not; kInternal when data follows.
  Status Finish();

 private:
  BlobStream(OdbStreamPtr stream, std::optional<ObjectFileStream> pack, const git_oid& id,
             uint64_t size);

  OdbStreamPtr stream_;                   // a loose blob's, or null
  std::optional<ObjectFileStream> pack_;  // a packed blob's, or none
  git_oid id_;
  uint64_t size_;
  uint64_t read_ = 0;
  ObjectHashStream hash_;
};

// Sets libgit2's process-wide options for the rule above; EnsureLibgit2 calls it once.
void DisableLibgit2HashCheck();

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_OBJECT_READER_H_
