#include "store/index/index_install.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "store/fault_point.h"
#include "store/file_io.h"
#include "store/file_write.h"
#include "store/index/database_files.h"
#include "store/secret.h"

namespace gentle::store::index {

Status RemoveInterruptedInstalls(const StoreLayout& layout) {
  auto names = ListDirectory(layout.root());
  if (!names.ok()) return Status::Ok();  // no store root yet
  const std::string prefix = kIndexRebuildPrefix;
  bool removed = false;
  for (const std::string& name : *names) {
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string path = layout.root() + "/" + name;
    // unlink() removes the name whatever it is (never a symlink's target); only a directory
    // cannot be ours.
    if (unlink(path.c_str()) != 0 && errno != ENOENT) {
      return Status(Code::kCorrupted, "index: cannot remove " + path + ": " + std::strerror(errno));
    }
    removed = true;
  }
  return removed ? SyncDirectory(layout.root()) : Status::Ok();
}

Result<std::unique_ptr<IndexDb>> InstallIndex(const StoreLayout& layout,
                                              const IndexSnapshot& rows) {
  const std::string index = layout.index_path();
  GENTLE_RETURN_IF_ERROR(CheckDatabaseFileKinds(index));
  GENTLE_RETURN_IF_ERROR(RemoveInterruptedInstalls(layout));
  GENTLE_ASSIGN_OR_RETURN(std::string suffix, RandomHex(8));
  const std::string fresh = layout.root() + "/" + kIndexRebuildPrefix + suffix;
  if (Status written = IndexDb::WriteNewFile(fresh, rows); !written.ok()) {
    // Best effort: whatever is left is removed by the next writer.
    Status ignored = RemoveInterruptedInstalls(layout);
    static_cast<void>(ignored);
    return written;
  }
  FaultPoint("index-rebuild:built");

  GENTLE_RETURN_IF_ERROR(RemoveDatabaseFile(index));
  FaultPoint("index-rebuild:old-removed");
  GENTLE_RETURN_IF_ERROR(RemoveDatabaseSideFiles(index));
  FaultPoint("index-rebuild:side-files-removed");
  if (std::rename(fresh.c_str(), index.c_str()) != 0) {
    return Status(Code::kInternal,
                  "index: cannot rename " + fresh + " to " + index + ": " + std::strerror(errno));
  }
  GENTLE_RETURN_IF_ERROR(SyncDirectory(layout.root()));
  FaultPoint("index-rebuild:installed");

  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<IndexDb> db, IndexDb::OpenReadWrite(index));
  FaultPoint("index-rebuild:replaced");
  return db;
}

}  // namespace gentle::store::index
