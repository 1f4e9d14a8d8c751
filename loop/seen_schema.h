// The seen ledger's file as the reader, the writer and fsck judge it (docs/loop.md "Schema"):
// the SQL of its schema version, the ownership check, the path checks made before SQLite opens
// anything, and the statements both halves run. Internal to loop/.
#ifndef GENTLE_LOOP_SEEN_SCHEMA_H_
#define GENTLE_LOOP_SEEN_SCHEMA_H_

#include <string>

#include "store/index/sqlite_handle.h"
#include "store/status.h"

namespace gentle::loop {

// Version 0 -> 1 (then 2 below). STRICT tables; `seq` is the rowid, so insertion order;
// (pr, comment_id) unique.
inline constexpr const char* kSeenMigrateTo1 = R"sql(
CREATE TABLE baselines (
  pr           TEXT PRIMARY KEY NOT NULL CHECK (length(pr) BETWEEN 1 AND 256),
  baselined_at TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE TABLE seen (
  seq          INTEGER PRIMARY KEY,
  pr           TEXT NOT NULL CHECK (length(pr) BETWEEN 1 AND 256),
  comment_id   TEXT NOT NULL CHECK (length(comment_id) BETWEEN 1 AND 20
                                    AND comment_id NOT GLOB '*[^0-9]*' AND comment_id NOT GLOB '0*'),
  kind         TEXT NOT NULL CHECK (kind IN ('baseline', 'handled', 'posted')),
  recorded_at  TEXT NOT NULL,
  UNIQUE (pr, comment_id)
) STRICT;
CREATE INDEX seen_by_pr ON seen (pr, seq);
PRAGMA application_id = 1195461712;
)sql";

// Version 1 -> 2: every id gets its kind (`comment`, `review`: GitHub's review bodies have their
// own id space); the rows of version 1 are comments and keep their seq, kind and time. The table
// is rebuilt (SQLite cannot change a UNIQUE constraint in place); run inside the migration's one
// transaction, so a ledger is wholly version 1 or wholly version 2.
inline constexpr const char* kSeenMigrateTo2 = R"sql(
CREATE TABLE seen_v2 (
  seq          INTEGER PRIMARY KEY,
  pr           TEXT NOT NULL CHECK (length(pr) BETWEEN 1 AND 256),
  id_kind      TEXT NOT NULL CHECK (id_kind IN ('comment', 'review')),
  id           TEXT NOT NULL CHECK (length(id) BETWEEN 1 AND 20
                                    AND id NOT GLOB '*[^0-9]*' AND id NOT GLOB '0*'),
  kind         TEXT NOT NULL CHECK (kind IN ('baseline', 'handled', 'posted')),
  recorded_at  TEXT NOT NULL,
  UNIQUE (pr, id_kind, id)
) STRICT;
INSERT INTO seen_v2 (seq, pr, id_kind, id, kind, recorded_at)
  SELECT seq, pr, 'comment', comment_id, kind, recorded_at FROM seen ORDER BY seq;
DROP TABLE seen;
ALTER TABLE seen_v2 RENAME TO seen;
CREATE INDEX seen_by_pr ON seen (pr, seq);
)sql";

// Version 2 -> 3: a posted id names the lineage whose verdict it answers (`seen add --posted
// --lineage`, `review post`); NULL for every other row and for the rows of earlier versions. A
// column added in place: the migration's one transaction keeps the ledger wholly one version.
inline constexpr const char* kSeenMigrateTo3 = R"sql(
ALTER TABLE seen ADD COLUMN lineage TEXT
  CHECK (lineage IS NULL OR (kind = 'posted' AND length(lineage) BETWEEN 1 AND 128));
)sql";

// The statements that read a ledger of `version` (1, 2 or 3): a version-1 ledger, which only a
// writer migrates, is read as it is, every id a comment. ?1 pr, ?2 id kind, ?3 id.
struct SeenReads {
  const char* entry;    // kind, recorded_at of one id
  const char* entries;  // id_kind, id, kind, recorded_at of a PR, in insertion order
};
SeenReads SeenReadsFor(int version);

inline constexpr const char* kSelectBaseline = "SELECT baselined_at FROM baselines WHERE pr = ?1";
inline constexpr const char* kInsertEntry =
    "INSERT OR IGNORE INTO seen (pr, id_kind, id, kind, recorded_at, lineage) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
inline constexpr const char* kUpsertBaseline =
    "INSERT INTO baselines (pr, baselined_at) VALUES (?1, ?2) "
    "ON CONFLICT (pr) DO UPDATE SET baselined_at = excluded.baselined_at";

// `status` with its "index: " prefix (store/index/sqlite_handle.h) replaced by "seen ledger: ".
Status LedgerStatus(const Status& status);

// Version 0 must be an empty database; a newer version than kSeenSchemaVersion, or a versioned
// file without kSeenApplicationId, is `corrupted` (details.schema_version for a newer one).
Status CheckSeenOwnership(store::index::SqliteConnection& conn, int version);

enum class SeenReadiness {
  kAbsent,            // no review-loop.sqlite
  kReady,             // open it read-only
  kSideFilesMissing,  // a WAL database without its -wal or -shm
  kWalInterrupted,    // a -wal of 1 to 32 bytes: a header and no frame
  kWalUnrecognised,   // a -wal longer than a header SQLite does not read
};
// kCorrupted for a symlinked component below the common dir, or a non-regular file at the
// database or a side file. Only lstat and at most 100 header bytes.
Result<SeenReadiness> InspectSeenLedger(const std::string& common_dir);

}  // namespace gentle::loop

#endif  // GENTLE_LOOP_SEEN_SCHEMA_H_
