#include "store/store_guard.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "store/file_io.h"
#include "store/index/database_files.h"

namespace gentle::store {

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
  GENTLE_RETURN_IF_ERROR(index::CheckDatabaseFileKinds(layout.index_path()));
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

}  // namespace gentle::store
