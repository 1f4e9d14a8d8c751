// IndexDb: the SQLite index of the review store (<root>/index.sqlite, docs/index.md).
//
// The index mirrors what the files say; the files are the source of truth. It holds three tables:
// the live-lineage catalog, burn tombstones by lineage, and quarantine audit records by lineage.
// Every row carries a status, `prepared` or `committed`: a mutation writes its rows prepared, then
// does its file work, then marks them committed (see docs/index.md). A reader that meets a prepared
// row resolves it from the files; ListPrepared() returns them all for that purpose, and
// ReplaceAll() regenerates the whole index from the files (`review index rebuild`).
//
// Open modes: OpenReadWrite() creates the file and migrates the schema, and keeps the -wal and
// -shm files when it closes (SQLITE_FCNTL_PERSIST_WAL; the WAL is truncated to zero bytes);
// OpenReadOnly() never creates index.sqlite (kNotFound if absent or uninitialised, so the caller
// falls back to the files) and never writes it; it reads one snapshot of the index (a read
// transaction held from open to close). Note: a read-only open of a WAL database in a
// writable directory creates an empty index.sqlite-wal and an index.sqlite-shm if they are absent,
// as SQLite requires for WAL readers; index.sqlite itself stays byte-identical.
//
// Errors: kBusy when another writer holds the lock past the busy timeout (safe to retry),
// kCorrupted when the file is not a gentle-ai index, fails its integrity check, or comes from a
// newer release; kInternal for anything else. One IndexDb is used by one thread at a time.
//
// The reader's methods are defined in the store's read target (store/index/index_db.cc), the
// writer's (OpenReadWrite, WriteNewFile, WriteTransaction, Upsert*, Mark*Committed, Delete*,
// ReplaceAll) in the write target (store/index/index_db_write.cc): code linked only to the read
// target cannot write the index.
#ifndef GENTLE_STORE_INDEX_INDEX_DB_H_
#define GENTLE_STORE_INDEX_INDEX_DB_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/review_state.h"
#include "store/status.h"

namespace gentle::store::index {

class SqliteConnection;

// The two phases of a mutation's row, and of a quarantine audit record's `status`
// (store/audit_record.h): one vocabulary, one name table.
enum class RowStatus { kPrepared, kCommitted };
std::string_view RowStatusName(RowStatus status);  // "prepared" | "committed"
// nullopt for any other text.
std::optional<RowStatus> ParseRowStatus(std::string_view text);

// One live lineage (catalog for list and status).
struct LineageRow {
  std::string lineage_id;
  StateName state;         // the record's state, e.g. reviewing (stored as its name)
  std::string kind;        // snapshot kind, e.g. "current-changes"
  std::string created_at;  // RFC 3339, stored verbatim; ordering uses its instant (time_order.h)
  int64_t path_count = 0;
  std::string revision;         // "sha256:<hex>" of the record
  std::string target_identity;  // current_snapshot.identity
  RowStatus status = RowStatus::kPrepared;
  bool operator==(const LineageRow&) const = default;
};

// One burn tombstone, <root>/terminal-consumption/v1/<key>.json.
struct TombstoneRow {
  std::string key;  // 64 lowercase hex: the file name without ".json"
  std::string lineage_id;
  std::string target_identity;
  std::string repository;  // repoKey, "sha256:<hex>"
  RowStatus status = RowStatus::kPrepared;
  bool operator==(const TombstoneRow&) const = default;
};

// One quarantine entry, <root>/quarantine/<quarantine_dir>/reclaim-record.json.
struct QuarantineRow {
  std::string quarantine_dir;  // directory name "<lineage>-<random>" (unique; the row's key)
  std::string lineage_id;
  std::string audit_path;  // absolute path of reclaim-record.json
  std::string reason;
  std::string actor;
  std::string reclaimed_at;  // RFC 3339 from the record; "newest" is decided by its instant
  RowStatus status = RowStatus::kPrepared;
  bool operator==(const QuarantineRow&) const = default;
};

// Rows of every table: the input of ReplaceAll() and the result of ListPrepared().
struct IndexSnapshot {
  std::vector<LineageRow> lineages;
  std::vector<TombstoneRow> tombstones;
  std::vector<QuarantineRow> quarantine;
};

struct IndexOptions {
  // How long to wait for another connection's write lock before kBusy.
  int busy_timeout_ms = 2000;
  // Run PRAGMA quick_check at open (kCorrupted if it fails). O(size of the index): about 50 ms for
  // 100,000 tombstones, so it is off for ordinary commands and on for fsck and rebuild decisions.
  bool quick_check = false;
  // What a read-only connection is for. A read-only open compiles the statements of its use to
  // prove the tables match schema_version (kCorrupted otherwise); a statement outside that use is
  // compiled when first run. kLineageLookups is FindTombstoneByLineage and FindQuarantineByLineage
  // only: compiling every reader statement cost more than the lookup it served. kTombstoneLookup
  // is FindTombstoneByLineage alone (the duplicate-claim check of a live record).
  enum class ReadUse { kAll, kLineageLookups, kTombstoneLookup };
  ReadUse read_use = ReadUse::kAll;
};

// Lookups whose query plans are observable (ExplainQueryPlan).
enum class IndexQuery { kLineageById, kTombstoneByLineage, kQuarantineByLineage, kListLineages };

class IndexDb {
 public:
  // Creates `path` if absent, sets WAL, synchronous=FULL and foreign_keys=ON, and migrates the
  // schema to the current version.
  static Result<std::unique_ptr<IndexDb>> OpenReadWrite(const std::string& path,
                                                        const IndexOptions& options = {});
  // Opens an existing, current index for queries only; write methods fail with kInternal. kNotFound
  // if the file is absent, was never initialised (version 0), or cannot be read (a WAL database
  // whose -wal/-shm are absent in a directory we cannot write).
  static Result<std::unique_ptr<IndexDb>> OpenReadOnly(const std::string& path,
                                                       const IndexOptions& options = {});
  // OpenReadOnly's checks and reads on an in-memory copy of an index file's bytes
  // (SqliteConnection::OpenImage), for an index whose side files are missing (fsck).
  static Result<std::unique_ptr<IndexDb>> OpenImage(std::string_view image,
                                                    const IndexOptions& options = {});
  // Writes a complete index at `path`, which must not exist, holding exactly `snapshot`, and
  // closes it with every page in the main file: checkpointed, its -wal and -shm removed by SQLite
  // (kInternal if either is left), the file fsynced. The file stays in WAL mode. This is how an
  // index is built beside the live one before it is renamed into place
  // (store/index/index_install.h).
  static Status WriteNewFile(const std::string& path, const IndexSnapshot& snapshot);
  ~IndexDb();
  IndexDb(const IndexDb&) = delete;
  IndexDb& operator=(const IndexDb&) = delete;

  bool read_only() const { return read_only_; }
  int schema_version() const { return schema_version_; }

  // Runs `body` inside one BEGIN IMMEDIATE transaction: committed if it returns ok, rolled back
  // otherwise (also if it throws). Writes outside WriteTransaction each run in their own. Not
  // reentrant (kInternal if nested).
  Status WriteTransaction(const std::function<Status()>& body);

  // WriteTransaction for a mutation's last index step, which only marks its rows committed (and
  // deletes the rows it removes): committed without a WAL sync of its own (synchronous = NORMAL
  // for this transaction alone; FULL again afterwards). Losing it to a power cut leaves the rows
  // prepared, which every reader resolves from the files exactly as after a crash before the
  // step (docs/index.md). It becomes durable with the checkpoint that closing the last connection
  // runs (WAL synced, then the database), or with the next synced transaction; this saves one
  // fdatasync of the WAL per mutation, the one the close checkpoint repeats.
  Status CommitStepTransaction(const std::function<Status()>& body);

  // Lineages. Upsert replaces every column, status included. Mark*Committed: kNotFound if no row.
  // Deletes are idempotent (ok if the row is already gone).
  Status UpsertLineage(const LineageRow& row);
  Status MarkLineageCommitted(std::string_view lineage_id);
  Status DeleteLineage(std::string_view lineage_id);
  Result<std::optional<LineageRow>> FindLineage(std::string_view lineage_id);
  // Visits every lineage ordered by (created_at instant, lineage_id), streaming; `visit` returns
  // false to stop early. `visit` must not use this IndexDb.
  Status ListLineages(const std::function<bool(const LineageRow&)>& visit);

  // Tombstones, keyed by file key.
  Status UpsertTombstone(const TombstoneRow& row);
  Status MarkTombstoneCommitted(std::string_view key);
  Status DeleteTombstone(std::string_view key);
  // Every tombstone, ordered by (lineage_id, status, key), streaming like ListLineages.
  Status ListTombstones(const std::function<bool(const TombstoneRow&)>& visit);
  // The lineage's committed tombstone, else its prepared one (first by key), else nullopt.
  Result<std::optional<TombstoneRow>> FindTombstoneByLineage(std::string_view lineage_id);

  // Quarantine, keyed by quarantine_dir.
  Status UpsertQuarantine(const QuarantineRow& row);
  Status MarkQuarantineCommitted(std::string_view quarantine_dir);
  Status DeleteQuarantine(std::string_view quarantine_dir);
  // Every entry, ordered by (lineage_id, status, newest first), streaming like ListLineages: the
  // first row of each lineage is the one FindQuarantineByLineage returns.
  Status ListQuarantine(const std::function<bool(const QuarantineRow&)>& visit);
  // The lineage's newest committed entry, else its newest prepared one, else nullopt.
  Result<std::optional<QuarantineRow>> FindQuarantineByLineage(std::string_view lineage_id);

  // Every row, in any table, still prepared (one consistent read).
  Result<IndexSnapshot> ListPrepared();
  // Replaces the whole content of every table by `snapshot`, in one transaction.
  Status ReplaceAll(const IndexSnapshot& snapshot);

  // EXPLAIN QUERY PLAN of the statement behind `query`, one plan line per text line.
  Result<std::string> ExplainQueryPlan(IndexQuery query);
  // PRAGMA quick_check: ok, or kCorrupted naming the first problem.
  Status QuickCheck();

 private:
  IndexDb(std::unique_ptr<SqliteConnection> conn, bool read_only, int schema_version);
  // The rest of an open: the schema checked (a reader) or brought up to date by `migrate` (a
  // writer), then the statements of the connection's use compiled.
  static Result<std::unique_ptr<IndexDb>> Finish(std::unique_ptr<SqliteConnection> conn,
                                                 bool read_only, const IndexOptions& options,
                                                 Status (*migrate)(SqliteConnection&));
  // Runs `body` in the open transaction, or in a new one.
  Status Write(const std::function<Status()>& body);
  Status MarkCommitted(const char* sql, std::string_view key, std::string_view what);
  Status DeleteByKey(const char* sql, std::string_view key);
  Status InsertAll(const IndexSnapshot& snapshot);

  std::unique_ptr<SqliteConnection> conn_;
  bool read_only_;
  int schema_version_;
  bool in_transaction_ = false;
};

}  // namespace gentle::store::index

#endif  // GENTLE_STORE_INDEX_INDEX_DB_H_
