#include "store/store_guard.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/database_files.h"
#include "store/file_io.h"
#include "store/file_modes.h"

namespace gentle::store {
namespace {

std::string OwnerRecord() {
  char host[256] = {0};
  gethostname(host, sizeof(host) - 1);
  return "{\"schema\":\"gentle-ai.review-store-lock/v1\",\"pid\":" + std::to_string(getpid()) +
         ",\"host\":\"" + std::string(host) + "\"}\n";
}

Status LockForMutation(const StoreLayout& layout, LockMode maintenance_mode, FileLock* maintenance,
                       FileLock* writer);

}  // namespace

Status CheckBatchMarker(const StoreLayout& layout) {
  struct stat st;
  if (lstat(layout.batch_marker().c_str(), &st) == 0) {
    return Status(Code::kReconciliationPrepared,
                  "batch reconciliation is prepared; exact replay is required");
  }
  if (errno != ENOENT && errno != ENOTDIR) {
    return Status(Code::kCorrupted,
                  "cannot inspect the batch marker: " + std::string(strerror(errno)));
  }
  return Status::Ok();
}

Status PreflightWrite(const StoreLayout& layout) {
  GENTLE_RETURN_IF_ERROR(CheckBatchMarker(layout));
  for (const std::string& lock : {layout.maintenance_lock(), layout.v2_lock()}) {
    GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), lock));
    const PathKind kind = KindOf(lock);
    if (kind != PathKind::kMissing && kind != PathKind::kFile) {
      return Status(Code::kCorrupted, "lock file is not a regular file: " + lock);
    }
  }
  return Status::Ok();
}

Status CheckStoreShape(const StoreLayout& layout) {
  StorePathKinds kinds(layout.common_dir());
  for (const std::string& path :
       {layout.maintenance_lock(), layout.v2_lock(), layout.tombstone_dir(),
        layout.quarantine_dir(), layout.index_path()}) {
    GENTLE_RETURN_IF_ERROR(kinds.Check(path).status());
  }
  // index.sqlite and its side files: each missing or a regular file (never a FIFO to block on).
  GENTLE_RETURN_IF_ERROR(CheckDatabaseFileKinds(layout.index_path()));
  for (const std::string& dir :
       {layout.root(), layout.v2_dir(), layout.tombstone_dir(), layout.quarantine_dir()}) {
    GENTLE_ASSIGN_OR_RETURN(PathKind kind, kinds.Check(dir));
    if (kind != PathKind::kMissing && kind != PathKind::kDirectory) {
      return Status(Code::kCorrupted, "store path is not a directory: " + dir);
    }
  }
  return Status::Ok();
}

Result<StoreGuard> StoreGuard::ForRead(const StoreLayout& layout) {
  GENTLE_RETURN_IF_ERROR(CheckBatchMarker(layout));
  GENTLE_RETURN_IF_ERROR(CheckStoreShape(layout));
  StoreGuard guard;
  GENTLE_ASSIGN_OR_RETURN(guard.maintenance_,
                          FileLock::Acquire(layout.maintenance_lock(), LockMode::kShared, false));
  GENTLE_RETURN_IF_ERROR(CheckBatchMarker(layout));
  return guard;
}

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
                       FileLock* writer) {
  GENTLE_RETURN_IF_ERROR(CheckBatchMarker(layout));
  GENTLE_RETURN_IF_ERROR(CheckStoreShape(layout));
  GENTLE_RETURN_IF_ERROR(EnsureDirectory(layout.common_dir(), layout.v2_dir(), kStoreDirMode));
  GENTLE_ASSIGN_OR_RETURN(*maintenance,
                          FileLock::Acquire(layout.maintenance_lock(), maintenance_mode, true));
  GENTLE_RETURN_IF_ERROR(CheckBatchMarker(layout));
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), layout.v2_lock()));
  GENTLE_ASSIGN_OR_RETURN(*writer, FileLock::Acquire(layout.v2_lock(), LockMode::kExclusive, true));
  GENTLE_RETURN_IF_ERROR(writer->WriteOwner(OwnerRecord()));
  return Status::Ok();
}

}  // namespace
}  // namespace gentle::store
