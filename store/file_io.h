// Symlink-refusing reads and path checks for the store (the writes are store/file_write.h).
//
// - Every path handled here lies under a trusted base (the git common dir). Each component between
//   the base and the target is lstat-ed and refused with `corrupted` if it is a symlink or not the
//   expected type, so a planted link cannot redirect a read or a write outside the store.
#ifndef GENTLE_STORE_FILE_IO_H_
#define GENTLE_STORE_FILE_IO_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "store/status.h"

namespace gentle::store {

enum class PathKind { kMissing, kFile, kDirectory, kSymlink, kOther };

PathKind KindOf(const std::string& path);

// The kinds of paths under one base, each path component lstat'ed once however many of the paths
// checked share it (a command checks the store's fixed paths together: nine components, which
// one path at a time took twenty lstat calls).
class StorePathKinds {
 public:
  explicit StorePathKinds(std::string base) : base_(std::move(base)) {}

  // kCorrupted if a component of `path` below the base is a symlink; otherwise the kind of `path`
  // itself, as KindOf (kMissing once a component is missing: nothing exists below it). kInternal
  // for a path outside the base.
  Result<PathKind> Check(const std::string& path);

 private:
  PathKind KindOnce(std::string_view path);

  std::string base_;
  std::vector<std::pair<std::string, PathKind>> seen_;  // a handful: searched linearly
};

// Refuses (kCorrupted) if any existing component of `path` below `base` is a symlink.
Status CheckNoSymlinks(const std::string& base, const std::string& path);

// The first `n` bytes of a regular file (fewer if it is shorter or unreadable; none if it is not a
// regular file or is a symlink: O_NONBLOCK so that a FIFO cannot block the open). For sniffing a
// database's header without trusting the file.
std::string FileHeader(const std::string& path, size_t n);

// Reads a regular file (not following a final symlink). kNotFound when absent; kCorrupted when it
// is not a regular file or is larger than max_bytes.
Result<std::string> ReadFileLimited(const std::string& path, size_t max_bytes);

// Names of the entries of a directory, sorted bytewise. kNotFound when the directory is absent.
Result<std::vector<std::string>> ListDirectory(const std::string& dir);

std::string ParentOf(const std::string& path);

}  // namespace gentle::store

#endif  // GENTLE_STORE_FILE_IO_H_
