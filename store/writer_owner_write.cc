// WriterOwner::Acquire, its record's writes and RefWriteIntent (store/writer_owner.h), in the
// store's write target.
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <utility>

#include "store/file_io.h"
#include "store/writer_owner.h"

namespace gentle::store {
namespace {

// Removes each `<ref>.lock` a dead holder's record names (only regular files: lstat).
Status RemoveDeadOwnerLocks(const StoreLayout& layout) {
  auto record = ReadFileLimited(layout.v2_lock(), kMaxOwnerRecordBytes);
  if (!record.ok() || record->empty()) return Status::Ok();
  for (const std::string& ref : OwnerRecordRefs(*record)) {
    const std::string lock = layout.common_dir() + "/" + ref + ".lock";
    if (KindOf(lock) != PathKind::kFile) continue;
    if (unlink(lock.c_str()) != 0 && errno != ENOENT) {
      return Status(Code::kInternal, "cannot remove the lock " + lock +
                                         " a stopped gentle-ai writer left: " + strerror(errno))
          .WithDetail(DetailKey::kLock, lock);
    }
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<WriterOwner>> WriterOwner::Acquire(const StoreLayout& layout) {
  std::unique_ptr<WriterOwner> owner(new WriterOwner());
  GENTLE_ASSIGN_OR_RETURN(owner->lock_,
                          FileLock::Acquire(layout.v2_lock(), LockMode::kExclusive, true));
  GENTLE_RETURN_IF_ERROR(RemoveDeadOwnerLocks(layout));
  GENTLE_RETURN_IF_ERROR(owner->WriteRecord());
  SetCurrentWriterOwner(owner.get());
  return owner;
}

Status WriterOwner::WriteRecord() {
  char host[256] = {0};
  gethostname(host, sizeof(host) - 1);
  nlohmann::ordered_json record;
  record["schema"] = "gentle-ai.review-store-lock/v1";
  record["pid"] = static_cast<int64_t>(getpid());
  record["host"] = std::string(host);
  record["refs"] = refs_;
  return lock_.WriteOwner(record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
                          "\n");
}

Result<RefWriteIntent> RefWriteIntent::Record(std::vector<std::string> refs) {
  RefWriteIntent intent;
  WriterOwner* owner = CurrentWriterOwner();
  if (owner == nullptr) return intent;
  owner->refs().insert(owner->refs().end(), refs.begin(), refs.end());
  intent.count_ = refs.size();
  GENTLE_RETURN_IF_ERROR(owner->WriteRecord());
  return intent;
}

RefWriteIntent::RefWriteIntent(RefWriteIntent&& other) noexcept
    : count_(std::exchange(other.count_, 0)) {}

RefWriteIntent::~RefWriteIntent() {
  WriterOwner* owner = CurrentWriterOwner();
  if (count_ == 0 || owner == nullptr) return;
  std::vector<std::string>& refs = owner->refs();
  refs.resize(refs.size() >= count_ ? refs.size() - count_ : 0);
  // Best effort: a record still naming a ref whose lock libgit2 already let go names a lock that
  // is not there.
  (void)owner->WriteRecord();
}

}  // namespace gentle::store
