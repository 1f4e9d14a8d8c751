// The SQL the review index runs, and the one helper its reader and writer share. Internal to
// store/index/: included only by index_db.cc (the reader, in the store's read target) and
// index_db_write.cc (the writer, in the write target).
#ifndef GENTLE_STORE_INDEX_INDEX_STATEMENTS_H_
#define GENTLE_STORE_INDEX_INDEX_STATEMENTS_H_

#include "store/index/sqlite_handle.h"
#include "store/status.h"

namespace gentle::store::index {

// Every statement the index runs; each is prepared once per connection (at open, which also proves
// the schema matches its version) and reused.
inline constexpr const char* kUpsertLineage = R"sql(
INSERT INTO lineages (lineage_id, state, kind, created_at, created_order, path_count, revision,
                      target_identity, status)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
ON CONFLICT (lineage_id) DO UPDATE SET
  state = excluded.state, kind = excluded.kind, created_at = excluded.created_at,
  created_order = excluded.created_order, path_count = excluded.path_count,
  revision = excluded.revision, target_identity = excluded.target_identity,
  status = excluded.status)sql";
inline constexpr const char* kCommitLineage =
    "UPDATE lineages SET status = 'committed' WHERE lineage_id = ?1";
inline constexpr const char* kDeleteLineage = "DELETE FROM lineages WHERE lineage_id = ?1";
inline constexpr const char* kFindLineage =
    "SELECT lineage_id, state, kind, created_at, path_count, revision, target_identity, status "
    "FROM lineages WHERE lineage_id = ?1";
inline constexpr const char* kListLineages =
    "SELECT lineage_id, state, kind, created_at, path_count, revision, target_identity, status "
    "FROM lineages ORDER BY created_order, lineage_id";
inline constexpr const char* kPreparedLineages =
    "SELECT lineage_id, state, kind, created_at, path_count, revision, target_identity, status "
    "FROM lineages WHERE status = 'prepared' ORDER BY lineage_id";

inline constexpr const char* kUpsertTombstone = R"sql(
INSERT INTO tombstones (key, lineage_id, target_identity, repository, status)
VALUES (?1, ?2, ?3, ?4, ?5)
ON CONFLICT (key) DO UPDATE SET
  lineage_id = excluded.lineage_id, target_identity = excluded.target_identity,
  repository = excluded.repository, status = excluded.status)sql";
inline constexpr const char* kCommitTombstone =
    "UPDATE tombstones SET status = 'committed' WHERE key = ?1";
inline constexpr const char* kDeleteTombstone = "DELETE FROM tombstones WHERE key = ?1";
// 'committed' sorts before 'prepared', so ORDER BY status prefers the committed row; the order is
// the index's own, so the lookup is one keyed search with no sort.
inline constexpr const char* kFindTombstone =
    "SELECT key, lineage_id, target_identity, repository, status FROM tombstones "
    "WHERE lineage_id = ?1 ORDER BY status, key LIMIT 1";
inline constexpr const char* kPreparedTombstones =
    "SELECT key, lineage_id, target_identity, repository, status FROM tombstones "
    "WHERE status = 'prepared' ORDER BY key";

inline constexpr const char* kUpsertQuarantine = R"sql(
INSERT INTO quarantine (quarantine_dir, lineage_id, audit_path, reason, actor, reclaimed_at,
                        reclaimed_order, status)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
ON CONFLICT (quarantine_dir) DO UPDATE SET
  lineage_id = excluded.lineage_id, audit_path = excluded.audit_path, reason = excluded.reason,
  actor = excluded.actor, reclaimed_at = excluded.reclaimed_at,
  reclaimed_order = excluded.reclaimed_order, status = excluded.status)sql";
inline constexpr const char* kCommitQuarantine =
    "UPDATE quarantine SET status = 'committed' WHERE quarantine_dir = ?1";
inline constexpr const char* kDeleteQuarantine = "DELETE FROM quarantine WHERE quarantine_dir = ?1";
inline constexpr const char* kFindQuarantine =
    "SELECT quarantine_dir, lineage_id, audit_path, reason, actor, reclaimed_at, status "
    "FROM quarantine WHERE lineage_id = ?1 "
    "ORDER BY status, reclaimed_order DESC, quarantine_dir DESC LIMIT 1";
inline constexpr const char* kPreparedQuarantine =
    "SELECT quarantine_dir, lineage_id, audit_path, reason, actor, reclaimed_at, status "
    "FROM quarantine WHERE status = 'prepared' ORDER BY quarantine_dir";

inline constexpr const char* kListTombstones =
    "SELECT key, lineage_id, target_identity, repository, status FROM tombstones "
    "ORDER BY lineage_id, status, key";
inline constexpr const char* kListQuarantine =
    "SELECT quarantine_dir, lineage_id, audit_path, reason, actor, reclaimed_at, status "
    "FROM quarantine ORDER BY lineage_id, status, reclaimed_order DESC, quarantine_dir DESC";

// What a read-only connection can run; validating only these keeps a reader's open cheap (parsing
// all of kAllStatements was a quarter of a small export-context).
inline constexpr const char* kReadStatements[] = {
    kListTombstones, kListQuarantine,     kFindLineage,    kListLineages,       kPreparedLineages,
    kFindTombstone,  kPreparedTombstones, kFindQuarantine, kPreparedQuarantine,
};
inline constexpr const char* kLineageLookupStatements[] = {kFindTombstone, kFindQuarantine};
inline constexpr const char* kTombstoneLookupStatements[] = {kFindTombstone};
inline constexpr const char* kAllStatements[] = {
    kListTombstones,   kListQuarantine, kUpsertLineage,      kCommitLineage,    kDeleteLineage,
    kFindLineage,      kListLineages,   kPreparedLineages,   kUpsertTombstone,  kCommitTombstone,
    kDeleteTombstone,  kFindTombstone,  kPreparedTombstones, kUpsertQuarantine, kCommitQuarantine,
    kDeleteQuarantine, kFindQuarantine, kPreparedQuarantine,
};

inline  // Runs a cached statement that takes no parameters and returns no rows.
    Status
    RunCached(SqliteConnection& conn, const char* sql) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(sql));
  return stmt.Run();
}

}  // namespace gentle::store::index

#endif  // GENTLE_STORE_INDEX_INDEX_STATEMENTS_H_
