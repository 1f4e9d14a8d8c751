// StoreGuard::ForWrite and ::ForMaintenance: the locks of a mutation, in the write target (the
// read target defines StoreGuard::ForRead, store/store_guard.cc).
#include <string>

#include "store/file_io.h"
#include "store/file_modes.h"
#include "store/file_write.h"
#include "store/store_guard.h"

namespace gentle::store {
namespace {

Status LockForMutation(const StoreLayout& layout, LockMode maintenance_mode, FileLock* maintenance,
                       std::unique_ptr<WriterOwner>* writer);

}  // namespace

Result<StoreGuard> StoreGuard::ForWrite(const StoreLayout& layout) {
  StoreGuard guard;
  GENTLE_RETURN_IF_ERROR(
      LockForMutation(layout, LockMode::kShared, &guard.maintenance_, &guard.writer_));
  return guard;
}

Result<StoreGuard> StoreGuard::ForMaintenance(const StoreLayout& layout) {
  StoreGuard guard;
  GENTLE_RETURN_IF_ERROR(
      LockForMutation(layout, LockMode::kExclusive, &guard.maintenance_, &guard.writer_));
  return guard;
}

namespace {

Status LockForMutation(const StoreLayout& layout, LockMode maintenance_mode, FileLock* maintenance,
                       std::unique_ptr<WriterOwner>* writer) {
  GENTLE_RETURN_IF_ERROR(CheckBatchMarker(layout));
  GENTLE_RETURN_IF_ERROR(CheckStoreShape(layout));
  GENTLE_RETURN_IF_ERROR(EnsureDirectory(layout.common_dir(), layout.v2_dir(), kStoreDirMode));
  GENTLE_ASSIGN_OR_RETURN(*maintenance,
                          FileLock::Acquire(layout.maintenance_lock(), maintenance_mode, true));
  GENTLE_RETURN_IF_ERROR(CheckBatchMarker(layout));
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), layout.v2_lock()));
  GENTLE_ASSIGN_OR_RETURN(*writer, WriterOwner::Acquire(layout));
  return Status::Ok();
}

}  // namespace
}  // namespace gentle::store
