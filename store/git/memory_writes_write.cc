// MemoryWrites::Flush, the one way the objects held reach the object database: in the store's
// write target (store/git/memory_writes.h).
#include <fcntl.h>
#include <sys/stat.h>

#include <string>

#include "store/git/git_util.h"
#include "store/git/memory_writes.h"
#include "store/git/memory_writes_held.h"

namespace gentle::store::git {

using memory_writes_detail::HeldObject;

namespace {

Status GitFailure(const std::string& what) {
  return Status(Code::kInternal, what + ": " + LastGitError());
}

}  // namespace

Status MemoryWrites::Flush() {
  if (restored_) return Status(Code::kInternal, "memory writes flushed twice");
  // Freshened as git_odb_write freshens an object it finds loose: its file's times set to now.
  const std::string objects = std::string(git_repository_commondir(repo_)) + "objects/";
  for (const git_oid& id : memory_->held->to_freshen) {
    const std::string hex = OidHex(id);
    utimensat(AT_FDCWD, (objects + hex.substr(0, 2) + "/" + hex.substr(2)).c_str(), nullptr, 0);
  }
  for (const HeldObject& object : memory_->held->objects) {
    git_oid written;
    if (git_odb_write(&written, real_.get(), object.data.data(), object.data.size(), object.type) !=
        0) {
      return GitFailure("cannot write object " + OidHex(object.id));
    }
  }
  Restore();
  return Status::Ok();
}

}  // namespace gentle::store::git
