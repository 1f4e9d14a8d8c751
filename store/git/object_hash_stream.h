// ObjectHashStream: git's object id of data that arrives in pieces, so that a large blob is hashed
// without being held in memory: SHA-1("<type> <size>\0" + data) by OpenSSL (as
// store::git::ObjectId), with the size declared up front as git's header needs it.
//
// Contract: after Start(type, size), Update() must be given exactly `size` bytes in total; Finish()
// returns the id, or nullopt when the bytes given differ in number from the size declared.
// HashFileAsBlob hashes a file's bytes as a blob (no filters: the caller decides that none apply)
// in 64 KiB reads: the size is the file's at open, and a file that shrinks while it is read is
// refused (kInternal), as libgit2's git_odb__hashfd refuses it.
#ifndef GENTLE_STORE_GIT_OBJECT_HASH_STREAM_H_
#define GENTLE_STORE_GIT_OBJECT_HASH_STREAM_H_

#include <git2.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "store/status.h"

namespace gentle::store::git {

class ObjectHashStream {
 public:
  ObjectHashStream();
  ~ObjectHashStream();
  ObjectHashStream(ObjectHashStream&&) noexcept;
  ObjectHashStream& operator=(ObjectHashStream&&) noexcept;

  void Start(git_object_t type, uint64_t size);
  void Update(std::string_view bytes);
  std::optional<git_oid> Finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

Result<git_oid> HashFileAsBlob(const std::string& path);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_OBJECT_HASH_STREAM_H_
