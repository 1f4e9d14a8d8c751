// IndexReader: how commands open index.sqlite to read it, and what a prepared row says when the
// files are asked (protocol in docs/index.md). In the store's read target;
// writers open the index through store/index/index_sync.h.
//
// Every open first checks that index.sqlite, -wal, -shm and -journal are each missing or a regular
// file, with lstat (store/index/database_files.h): a symlink, directory, FIFO or socket there is
// `corrupted`, and nothing is opened.
//
// Readers: OpenIndexForReader opens read-only and never creates anything. No index (a fresh store,
// or one written by the Go gentle-ai) yields nullptr: the caller falls back to the files. So does
// an index a read-only connection could not open at once without writing (side files missing) or
// without stalling (a -wal holding a header but no frame, left by a killed writer; or a -wal whose
// header SQLite does not read). An unusable index (corrupt, not ours, a newer release's, or one
// with a hot rollback journal beside it) also yields nullptr, after a one-line notice on stderr.
//
#ifndef GENTLE_STORE_INDEX_INDEX_READER_H_
#define GENTLE_STORE_INDEX_INDEX_READER_H_

#include <memory>
#include <string_view>

#include "store/index/index_db.h"
#include "store/layout.h"
#include "store/status.h"

namespace gentle::store::index {

// "gentle-ai: notice: <text>" on stderr.
void Notice(std::string_view text);

Result<std::unique_ptr<IndexDb>> OpenIndexForReader(
    const StoreLayout& layout, IndexOptions::ReadUse use = IndexOptions::ReadUse::kAll);

// What a read-only open of index.sqlite would meet, judged from lstat and file headers alone.
enum class IndexReadiness {
  kAbsent,            // no index.sqlite
  kReady,             // open it read-only
  kSideFilesMissing,  // a WAL database whose -wal or -shm is missing: SQLite would create them
  kWalInterrupted,    // the -wal holds a header and no frame (1 to 32 bytes): a read-only
                      // connection with no writer beside it would retry for ~10 s, then fail
  kWalUnrecognised,   // the -wal is longer than a header SQLite reads: the same stall
  kNotADatabase,      // index.sqlite is not a SQLite database, and its -wal is one of the above
  kHotJournal,        // a non-empty index.sqlite-journal whose first byte is not zero: a rollback
                      // journal SQLite would have to play back into the file (this store's WAL
                      // index never writes one), which a read-only connection cannot do
};
// kCorrupted for a symlinked component, or a non-regular file at index.sqlite or a side file.
Result<IndexReadiness> InspectIndexForReader(const StoreLayout& layout);

// For fsck, an index whose side files are missing (kSideFilesMissing), read without creating them:
// index.sqlite (at most kMaxIndexImageBytes) is copied into memory, its header turned to the
// rollback-journal form (an in-memory database has no -wal; without its -wal the file holds every
// committed page) and opened with IndexDb::OpenImage. kBudgetExceeded above the limit; kBusy when
// the file or its side files changed while it was read (a writer opened it: retry).
inline constexpr size_t kMaxIndexImageBytes = 256u << 20;
Result<std::unique_ptr<IndexDb>> OpenIndexImage(const StoreLayout& layout,
                                                const IndexOptions& options);

// Whether a prepared row describes a mutation that took effect, judged from the files alone.
bool TombstoneEffective(const StoreLayout& layout, const TombstoneRow& row);
bool QuarantineEffective(const StoreLayout& layout, const QuarantineRow& row);

}  // namespace gentle::store::index

#endif  // GENTLE_STORE_INDEX_INDEX_READER_H_
