// RemoveDatabaseFile and RemoveDatabaseSideFiles (store/index/database_files.h), in the store's
// write target.
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "store/file_io.h"
#include "store/file_write.h"
#include "store/index/database_files.h"

namespace gentle::store::index {
namespace {

Status Unlink(const std::string& file) {
  if (unlink(file.c_str()) == 0 || errno == ENOENT) return Status::Ok();
  return Status(Code::kInternal, "index: cannot remove " + file + ": " + std::strerror(errno));
}

}  // namespace

Status RemoveDatabaseFile(const std::string& path) {
  GENTLE_RETURN_IF_ERROR(CheckDatabaseFileKinds(path));
  GENTLE_RETURN_IF_ERROR(Unlink(path));
  return SyncDirectory(ParentOf(path));
}

Status RemoveDatabaseSideFiles(const std::string& path) {
  GENTLE_RETURN_IF_ERROR(CheckDatabaseFileKinds(path));
  for (const char* suffix : kDatabaseSideSuffixes) GENTLE_RETURN_IF_ERROR(Unlink(path + suffix));
  return SyncDirectory(ParentOf(path));
}

}  // namespace gentle::store::index
