// ExistingWalVfs: the SQLite VFS read-write connections of the index open with: the default one
// ("unix") except for how it opens the database's `-wal` file.
//
// SQLite opens a WAL with O_CREAT, and its unix VFS then syncs the WAL's directory at the first
// sync of the file (once per process), because the file may have just been created. The index
// keeps its `-wal` between processes (SQLITE_FCNTL_PERSIST_WAL, docs/index.md), so that directory
// sync is paid by every mutation for a file that was already there. This VFS opens an existing
// regular `-wal` without O_CREAT (so without the directory sync); a missing one it creates itself
// (O_EXCL, O_NOFOLLOW, mode 0600, as SQLite would give it the database's mode) and syncs into its
// directory before SQLite opens it, so every `-wal` this tool makes is durable in its directory
// from the start. Every other file, and every other call, is the default VFS's.
//
// Thread-safety: registered once per process (std::call_once).
#ifndef GENTLE_STORE_INDEX_WAL_VFS_H_
#define GENTLE_STORE_INDEX_WAL_VFS_H_

namespace gentle::store::index {

// The VFS's name for sqlite3_open_v2, registered (not as the default) on the first call.
const char* ExistingWalVfs();

}  // namespace gentle::store::index

#endif  // GENTLE_STORE_INDEX_WAL_VFS_H_
