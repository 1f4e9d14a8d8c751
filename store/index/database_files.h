// DatabaseFiles: the files of one SQLite database on disk (the main file and the -wal, -shm and
// -journal SQLite keeps beside it), judged before SQLite opens any of them.
//
// Contract:
// - CheckDatabaseFileKinds: each of the four paths must be missing or a regular file. A symlink,
//   a directory, a FIFO, a socket or a device is kCorrupted, naming the path and what it is. It
//   only lstat()s: nothing is opened, so a FIFO cannot block the caller.
// - InspectWal: what the -wal holds, from lstat() and at most its 32-byte header. The file is
//   opened only when it is a regular file longer than a header, with O_NONBLOCK and O_NOFOLLOW,
//   and checked again with fstat() before it is read. The states are those that decide whether a
//   read-only connection can use the database at once (docs/index.md, "What a read-only open
//   does"): a WAL whose first 32 bytes are all it holds, or whose header SQLite does not
//   recognise, makes a read-only connection that has no writer beside it retry for about ten
//   seconds and then fail with SQLITE_PROTOCOL.
// - RemoveDatabaseFile, then RemoveDatabaseSideFiles: the main file first, made durable, then the
//   side files, made durable. In that order a crash leaves side files with no database (SQLite
//   discards a -wal beside a missing or empty database), never a database without the -wal its
//   last transactions are in, and never a new database beside the side files of an old one.
//   Both accept only regular files (and missing ones): anything else is kCorrupted and nothing is
//   removed. They are defined in the store's write target (store/index/database_files_write.cc).
#ifndef GENTLE_STORE_INDEX_DATABASE_FILES_H_
#define GENTLE_STORE_INDEX_DATABASE_FILES_H_

#include <string>

#include "store/status.h"

namespace gentle::store::index {

// The files SQLite may keep beside `path`, as suffixes of its name.
inline constexpr const char* kDatabaseSideSuffixes[] = {"-wal", "-shm", "-journal"};

// The size of a WAL file's header (https://www.sqlite.org/fileformat.html#the_write_ahead_log).
inline constexpr long kWalHeaderSize = 32;

Status CheckDatabaseFileKinds(const std::string& path);

enum class WalState {
  kAbsent,        // no -wal
  kEmpty,         // zero bytes: nothing to replay
  kFrames,        // a header SQLite recognises, and more bytes after it
  kInterrupted,   // 1 to 32 bytes: a header (or part of one) and no frame: a writer was killed
                  // between writing the header and writing its first frame
  kUnrecognised,  // longer than a header, but not a header SQLite reads (magic or page size)
};

// kCorrupted if the -wal is not a regular file.
Result<WalState> InspectWal(const std::string& database_path);

Status RemoveDatabaseFile(const std::string& path);
Status RemoveDatabaseSideFiles(const std::string& path);

}  // namespace gentle::store::index

#endif  // GENTLE_STORE_INDEX_DATABASE_FILES_H_
