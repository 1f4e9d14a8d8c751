// StoreGuard: the locks one store operation holds, taken in the order docs/format.md fixes.
//
//   ForRead      batch marker check, shared maintenance lock (only if the lock file exists, so
//                a read creates nothing), batch marker re-check.
//   ForWrite     batch marker check, store directories, shared maintenance lock, batch marker
//                re-check, then the exclusive v2/LOCK with its owner record
//                (store/writer_owner.h: ref locks a dead holder left are removed).
//   ForMaintenance  like ForWrite but the maintenance lock is exclusive (burn, store reset).
//
// A present batch-reconciliation marker refuses every operation with `reconciliation_prepared`.
//
// Thread-safety: each lock is an open file description of its own (store/file_lock.h), so a guard
// excludes other processes and the other guards of this process alike. A guard is owned by one
// thread; it is moved, never shared.
//
// ForWrite and ForMaintenance are defined in the store's write target (store/store_guard_write.cc):
// code linked only to the read target (export/) cannot take a writer's locks.
#ifndef GENTLE_STORE_STORE_GUARD_H_
#define GENTLE_STORE_STORE_GUARD_H_

#include <memory>

#include "store/file_lock.h"
#include "store/layout.h"
#include "store/status.h"
#include "store/writer_owner.h"

namespace gentle::store {

class StoreGuard {
 public:
  static Result<StoreGuard> ForRead(const StoreLayout& layout);
  static Result<StoreGuard> ForWrite(const StoreLayout& layout);
  static Result<StoreGuard> ForMaintenance(const StoreLayout& layout);

 private:
  FileLock maintenance_;
  std::unique_ptr<WriterOwner> writer_;
};

Status CheckBatchMarker(const StoreLayout& layout);

// Refuses (kCorrupted) a store whose fixed paths (root, v2, tombstones, quarantine, locks, index)
// are symlinks or, for the directories, not directories, and one whose index.sqlite, -wal, -shm or
// -journal is anything but a regular file (CheckDatabaseFileKinds). A handful of lstat calls:
// every operation runs it before trusting the store.
Status CheckStoreShape(const StoreLayout& layout);

// What ForWrite would refuse, checked without creating, locking or writing anything: the batch
// marker, a symlinked component down to either lock file, a lock file that is not a regular file.
// A mutation runs it before it writes git objects, so a damaged store costs no object write.
Status PreflightWrite(const StoreLayout& layout);

}  // namespace gentle::store

#endif  // GENTLE_STORE_STORE_GUARD_H_
