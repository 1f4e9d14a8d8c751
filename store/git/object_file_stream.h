// ObjectFileStream: an object's data inflated in pieces straight from the file that holds it: its
// loose file, or a pack that holds it whole (store/git/pack_entry.h).
//
// libgit2's loose read stream maps the object's compressed file whole and keeps it mapped while it
// is inflated, so reading a large incompressible blob holds its compressed bytes in memory beside
// the inflated ones; it opens no stream on a packed object at all, and reads one whole through a
// mapped window of the pack (docs/performance.md, "A one-byte change to a large binary"). This
// reads the file with read(2), 64 KiB at a time, through zlib (store/git/file_inflater.h): the
// memory is zlib's state and one buffer, whatever the object's size.
//
// ReadBlobInPieces reads the blob `id` whole through it, from the loose file the object
// database's guard names (store/git/loose_object_guard.h), else from a pack of the guard's object
// directories that holds it whole, its hash checked as store/git/object_reader.h checks every
// object: the bytes of a large blob are held once, never beside its compressed file or a mapped
// pack.
//
// Contract: OpenLoose(path) opens the loose object file (no final symlink followed, O_NONBLOCK, a
// regular file only) and inflates its header "<type> <size>\0"; nullopt when it cannot (absent,
// not a file, not zlib data: a legacy "packlike" loose object, a header that does not parse).
// OpenPacked(object_dirs, id) opens the whole pack entry FindWholePackEntry finds; nullopt when
// there is none. Either way the caller then reads the object another way, which reports what is
// wrong. Read(buffer, n) inflates up to n bytes of the data, never past size(); Finish() after
// size() bytes says whether the zlib stream ends exactly there. Hashing is the caller's
// (store/git/object_reader.h).
#ifndef GENTLE_STORE_GIT_OBJECT_FILE_STREAM_H_
#define GENTLE_STORE_GIT_OBJECT_FILE_STREAM_H_

#include <git2.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/status.h"

namespace gentle::store::git {

class ObjectFileStream {
 public:
  static std::optional<ObjectFileStream> OpenLoose(const std::string& path);
  static std::optional<ObjectFileStream> OpenPacked(const std::vector<std::string>& object_dirs,
                                                    const git_oid& id);
  ~ObjectFileStream();
  ObjectFileStream(ObjectFileStream&&) noexcept;
  ObjectFileStream& operator=(ObjectFileStream&&) noexcept;

  git_object_t type() const;
  uint64_t size() const;

  // Up to `n` bytes into `buffer` (fewer only at size()); kInternal when the data does not
  // inflate or ends before size().
  Result<size_t> Read(char* buffer, size_t n);
  // kInternal unless the zlib stream ends right after size() bytes of data.
  Status Finish();

 private:
  struct State;
  explicit ObjectFileStream(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// The blob `id` of `odb` read whole into `out` from its loose file or its whole pack entry (out
// sized from the header first, then filled): Ok when its bytes hash to `id`; kNotFound when there
// is neither a loose file the stream can open nor such a pack entry (a delta, absent, a legacy
// format, no guard: the caller reads the blob another way, which reports what is wrong);
// kObjectsMissing (details.object, reason hash_mismatch) when the bytes do not hash to `id` or the
// object is not a blob (details.reason not_a_blob); kInternal (details.object) when the data does
// not inflate or does not end at its declared size.
Status ReadBlobInPieces(git_odb* odb, const git_oid& id, std::string* out);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_OBJECT_FILE_STREAM_H_
