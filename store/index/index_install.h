// IndexInstall: replacing index.sqlite with an index built from the files, so that no reader ever
// opens a half-built index (docs/index.md, "Rebuilding without a half-built index").
//
// InstallIndex(layout, rows), under the writer lock:
//   1. removes what an interrupted install left in the store root (`index.sqlite.rebuild-*`);
//   2. writes every row into a new file `index.sqlite.rebuild-<16 hex>` beside the live index
//      (IndexDb::WriteNewFile: complete, checkpointed, no -wal or -shm, fsynced)
//                                                                  fault point index-rebuild:built
//   3. removes index.sqlite, durably                          fault point index-rebuild:old-removed
//   4. removes index.sqlite-wal, -shm and -journal, durably
//                                                      fault point index-rebuild:side-files-removed
//   5. renames the new file to index.sqlite, durably          fault point index-rebuild:installed
//   6. opens it read-write, which creates its -wal and -shm     fault point index-rebuild:replaced
// and returns that connection.
//
// What a reader sees: before step 3 the old index (or none); from step 3 to step 5 no index, so
// it answers from the files; from step 5 the new, complete index (from the files until step 6
// has created the side files). The old side files are gone before the new file takes the name,
// so no -wal of the old database is ever beside the new one: SQLite would replay the frames of a
// -wal whose header checksums hold, whatever database it lies beside. A crash anywhere leaves
// either the old index, or no index (the next writer rebuilds it), or the new one; the temp file
// is removed by the next writer (RemoveInterruptedInstalls).
#ifndef GENTLE_STORE_INDEX_INDEX_INSTALL_H_
#define GENTLE_STORE_INDEX_INDEX_INSTALL_H_

#include <memory>

#include "store/index/index_db.h"
#include "store/layout.h"
#include "store/status.h"

namespace gentle::store::index {

// The name of a new index while it is built, before the random suffix.
inline constexpr const char* kIndexRebuildPrefix = "index.sqlite.rebuild-";

Result<std::unique_ptr<IndexDb>> InstallIndex(const StoreLayout& layout, const IndexSnapshot& rows);

// Removes `index.sqlite.rebuild-*` files (and their side files) from the store root. Callers hold
// the writer lock, so no install is under way.
Status RemoveInterruptedInstalls(const StoreLayout& layout);

}  // namespace gentle::store::index

#endif  // GENTLE_STORE_INDEX_INDEX_INSTALL_H_
