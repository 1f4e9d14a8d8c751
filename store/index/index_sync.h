// IndexSync: how writers open index.sqlite, and how the index is kept in step with the files
// (protocol in docs/index.md and docs/lifecycle.md). In the store's write
// target; how readers open it is store/index/index_reader.h.
//
// Every open first checks that index.sqlite, -wal, -shm and -journal are each missing or a regular
// file, with lstat (store/index/database_files.h): a symlink, directory, FIFO or socket there is
// `corrupted` for readers, writers and `review index rebuild` alike, and nothing is opened.
//
// Writers, under the store's writer lock: OpenIndexForWriter opens read-write; if index.sqlite is
// missing while the files hold something, or is corrupt, it is rebuilt from the files with a
// one-line notice on stderr, beside the old one and renamed into place
// (store/index/index_install.h), so no reader sees a half-built index. An index from a newer
// release is `corrupted`, with a message naming `review index rebuild`. It then runs
// RecoverInterrupted: each prepared row left by a crashed mutation is finished or undone by looking
// at the files, and an interrupted store reset is completed. RebuildIndex regenerates the whole
// index from the files (`review index rebuild`), replacing also an index from a newer release.
#ifndef GENTLE_STORE_INDEX_INDEX_SYNC_H_
#define GENTLE_STORE_INDEX_INDEX_SYNC_H_

#include <memory>

#include "store/git/repository.h"
#include "store/index/index_db.h"
#include "store/index/index_reader.h"
#include "store/layout.h"
#include "store/progress.h"
#include "store/status.h"

namespace gentle::store::index {

Result<std::unique_ptr<IndexDb>> OpenIndexForWriter(const git::Repository& repo,
                                                    const StoreLayout& layout);

Status RecoverInterrupted(const git::Repository& repo, const StoreLayout& layout, IndexDb* db);

struct RebuildReport {
  size_t lineages = 0;
  size_t tombstones = 0;
  size_t quarantine = 0;
  size_t repinned = 0;              // live lineages whose missing history ref was rewritten
  size_t recovered = 0;             // interrupted mutations finished or undone from the files
  int replaced_schema_version = 0;  // > 0: the schema_version of a newer release's index replaced
};
// Finishes interrupted file protocols, writes the missing history ref of each live lineage whose
// trees are present (`repinned`), and installs a new index holding what the files say
// (store/index/index_install.h), also over a newer release's index. Caller holds the writer lock
// and the exclusive maintenance lock, so no reader has the old index open while it is replaced.
// `progress` (may be null) is told the files read (ScanStoreFiles) and then the histories
// levelled, one phase each.
Result<RebuildReport> RebuildIndex(const git::Repository& repo, const StoreLayout& layout,
                                   Progress* progress = nullptr);

}  // namespace gentle::store::index

#endif  // GENTLE_STORE_INDEX_INDEX_SYNC_H_
