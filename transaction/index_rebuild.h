// INDEX REBUILD (docs/index.md).
//
// RebuildIndexCommand regenerates index.sqlite from the files alone, under the exclusive
// maintenance lock and the writer lock, after removing the temp files of interrupted writes (the
// `interrupted_write` findings of fsck) and finishing interrupted mutations the files reveal
// (store::index::RebuildIndex); it replaces an index from a newer release too (the explicit way out
// of it). A bare repository is refused with `usage` before anything is created, as for start.
#ifndef GENTLE_TRANSACTION_INDEX_REBUILD_H_
#define GENTLE_TRANSACTION_INDEX_REBUILD_H_

#include <string>

#include "store/index/index_sync.h"
#include "store/progress.h"
#include "store/status.h"

namespace gentle::transaction {

// `progress` (may be null) is told the files read and the histories levelled
// (store::index::RebuildIndex).
Result<store::index::RebuildReport> RebuildIndexCommand(const std::string& cwd,
                                                        store::Progress* progress = nullptr);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_INDEX_REBUILD_H_
