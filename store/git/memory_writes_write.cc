// MemoryWrites::Flush, the one way the objects held reach the object database: in the store's
// write target (store/git/memory_writes.h).
#include <fcntl.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "store/git/git_util.h"
#include "store/git/loose_batch.h"
#include "store/git/memory_writes.h"
#include "store/git/memory_writes_held.h"

namespace gentle::store::git {

using memory_writes_detail::HeldObject;

Status MemoryWrites::Flush() {
  if (restored_) return Status(Code::kInternal, "memory writes flushed twice");
  // Freshened as git_odb_write freshens an object it finds loose: its file's times set to now.
  const std::string common = git_repository_commondir(repo_);
  const std::string objects = common + "objects/";
  for (const git_oid& id : memory_->held->to_freshen) {
    const std::string hex = OidHex(id);
    utimensat(AT_FDCWD, (objects + hex.substr(0, 2) + "/" + hex.substr(2)).c_str(), nullptr, 0);
  }
  // Durable before anything names them, in one batch with one sync (store/git/loose_batch.h).
  std::vector<LooseObject> batch;
  batch.reserve(memory_->held->objects.size());
  for (const HeldObject& object : memory_->held->objects) {
    batch.push_back({object.id, object.type, object.data});
  }
  GENTLE_RETURN_IF_ERROR(WriteLooseBatch(common + "objects", batch));
  Restore();
  return Status::Ok();
}

}  // namespace gentle::store::git
