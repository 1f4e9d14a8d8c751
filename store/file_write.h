// Durable, symlink-refusing file writes for the store (the reads are store/file_io.h).
//
// - Every path handled here lies under a trusted base (the git common dir). Each component between
//   the base and the target is lstat-ed and refused with `corrupted` if it is a symlink or not the
//   expected type, so a planted link cannot redirect a write outside the store.
// - WriteFileAtomic: temp file in the same directory, write, fsync, rename over the target, fsync
//   the directory. A crash leaves either the old file or the new one (plus at most a `.atomic-*`
//   temp).
#ifndef GENTLE_STORE_FILE_WRITE_H_
#define GENTLE_STORE_FILE_WRITE_H_

#include <sys/types.h>

#include <string>
#include <string_view>

#include "store/status.h"

namespace gentle::store {

// Creates `path` and its missing parents below `base` with `mode`, refusing symlinked components.
Status EnsureDirectory(const std::string& base, const std::string& path, mode_t mode = 0700);

Status WriteFileAtomic(const std::string& path, std::string_view bytes, mode_t mode = 0600);

// fsync of a directory, so a rename or unlink in it is durable.
Status SyncDirectory(const std::string& dir);

// Renames with fsync of both parent directories.
Status RenameDurable(const std::string& from, const std::string& to);

// Removes a file or a whole directory tree (without following symlinks); missing is fine.
Status RemoveTree(const std::string& path);

}  // namespace gentle::store

#endif  // GENTLE_STORE_FILE_WRITE_H_
