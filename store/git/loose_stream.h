// LooseStream: a loose object's data inflated in pieces straight from its file.
//
// libgit2's loose read stream maps the object's compressed file whole and keeps it mapped while it
// is inflated, so reading a large incompressible blob holds its compressed bytes in memory beside
// the inflated ones (docs/performance.md, "A one-byte change to a large random binary"). This
// reads the file with read(2), 64 KiB at a time, through zlib: the memory is zlib's state and one
// buffer, whatever the object's size.
//
// ReadLooseBlob reads the blob `id` whole through it from the loose file the object database's
// guard names (store/git/loose_object_guard.h), its hash checked as store/git/object_reader.h
// checks every object: the bytes of a large blob are held once, never beside its compressed file.
//
// Contract: Open(path) opens the loose object file (no final symlink followed, O_NONBLOCK, a
// regular file only) and inflates its header "<type> <size>\0"; nullopt when it cannot (absent,
// not a file, not zlib data: a legacy "packlike" loose object, a header that does not parse):
// the caller then reads the object another way, which reports what is wrong. Read(buffer, n)
// inflates up to n bytes of the data, never past size(); Finish() after size() bytes says whether
// the zlib stream ends exactly there. Hashing is the caller's (store/git/object_reader.h).
#ifndef GENTLE_STORE_GIT_LOOSE_STREAM_H_
#define GENTLE_STORE_GIT_LOOSE_STREAM_H_

#include <git2.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "store/status.h"

namespace gentle::store::git {

class LooseStream {
 public:
  static std::optional<LooseStream> Open(const std::string& path);
  ~LooseStream();
  LooseStream(LooseStream&&) noexcept;
  LooseStream& operator=(LooseStream&&) noexcept;

  git_object_t type() const;
  uint64_t size() const;

  // Up to `n` bytes into `buffer` (fewer only at size()); kInternal when the data does not
  // inflate or ends before size().
  Result<size_t> Read(char* buffer, size_t n);
  // kInternal unless the zlib stream ends right after size() bytes of data.
  Status Finish();

 private:
  struct State;
  explicit LooseStream(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// The blob `id` of `odb` read whole into `out` from its loose file (out sized from the header
// first, then filled): Ok when its bytes hash to `id`; kNotFound when there is no loose file the
// stream can open (packed, absent, a legacy format: the caller reads the blob another way, which
// reports what is wrong); kObjectsMissing (details.object, reason hash_mismatch) when the bytes do
// not hash to `id` or the object is not a blob (details.reason not_a_blob); kInternal
// (details.object) when the data does not inflate or does not end at its declared size.
Status ReadLooseBlob(git_odb* odb, const git_oid& id, std::string* out);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_LOOSE_STREAM_H_
