// IndexSync: how commands open index.sqlite, and how the index is kept in step with the files
// (DESIGN.md section 5; protocol in docs/index.md and docs/lifecycle.md).
//
// Every open first checks that index.sqlite, -wal, -shm and -journal are each missing or a regular
// file, with lstat (store/database_files.h): a symlink, directory, FIFO or socket there is
// `corrupted` for readers, writers and `review index rebuild` alike, and nothing is opened.
//
// Readers: OpenIndexForReader opens read-only and never creates anything. No index (a fresh store,
// or one written by the Go gentle-ai) yields nullptr: the caller falls back to the files. So does
// an index a read-only connection could not open at once without writing (side files missing) or
// without stalling (a -wal holding a header but no frame, left by a killed writer; or a -wal whose
// header SQLite does not read). An unusable index (corrupt, not ours, a newer release's) also
// yields nullptr, after a one-line notice on stderr.
//
// Writers, under the store's writer lock: OpenIndexForWriter opens read-write; if index.sqlite is
// missing while the files hold something, or is corrupt, it is rebuilt from the files with a
// one-line notice on stderr, beside the old one and renamed into place (store/index_install.h),
// so no reader sees a half-built index. An index from a newer release is `corrupted`, with a
// message naming `review index rebuild`. It then runs RecoverInterrupted: each prepared row left
// by a crashed mutation is finished or undone by looking at the files, and an interrupted store
// reset is completed. RebuildIndex regenerates the whole index from the files (`review index
// rebuild`), replacing also an index from a newer release.
#ifndef GENTLE_STORE_INDEX_INDEX_SYNC_H_
#define GENTLE_STORE_INDEX_INDEX_SYNC_H_

#include <memory>
#include <string_view>

#include "store/git/repository.h"
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
};
// kCorrupted for a symlinked component, or a non-regular file at index.sqlite or a side file.
Result<IndexReadiness> InspectIndexForReader(const StoreLayout& layout);

Result<std::unique_ptr<IndexDb>> OpenIndexForWriter(const git::Repository& repo,
                                                    const StoreLayout& layout);

Status RecoverInterrupted(const git::Repository& repo, const StoreLayout& layout, IndexDb* db);

struct RebuildReport {
  size_t lineages = 0;
  size_t tombstones = 0;
  size_t quarantine = 0;
  size_t repinned = 0;              // live lineages whose missing pin ref was rewritten
  size_t recovered = 0;             // interrupted mutations finished or undone from the files
  int replaced_schema_version = 0;  // > 0: the schema_version of a newer release's index replaced
};
// Finishes interrupted file protocols, re-pins live lineages whose trees are present, and installs
// a new index holding what the files say (store/index_install.h), also over a newer release's
// index. Caller holds the writer lock and the exclusive maintenance lock, so no reader has the old
// index open while it is replaced.
Result<RebuildReport> RebuildIndex(const git::Repository& repo, const StoreLayout& layout);

// Whether a prepared row describes a mutation that took effect, judged from the files alone.
bool TombstoneEffective(const StoreLayout& layout, const TombstoneRow& row);
bool QuarantineEffective(const StoreLayout& layout, const QuarantineRow& row);

}  // namespace gentle::store::index

#endif  // GENTLE_STORE_INDEX_INDEX_SYNC_H_
