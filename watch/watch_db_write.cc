// The writer's half of WatchDb (watch/watch_db.h): creating and migrating the watcher's tables,
// transactions and every row write. In gentle_watch; the reader's half, watch/watch_db.cc, is in
// gentle_watch_read, which links no writer (watch/CMakeLists.txt checks it).
#include <sqlite3.h>

#include <nlohmann/json.hpp>

#include "loop/seen_ledger.h"
#include "loop/seen_schema.h"
#include "store/file_io.h"
#include "store/file_lock.h"
#include "store/index/sqlite_handle.h"
#include "watch/watch_db.h"

namespace gentle::watch {
namespace {

using store::index::SqliteConnection;
using store::index::Statement;

constexpr const char* kWatchMigrateTo1 = R"sql(
CREATE TABLE watch_schema (
  version INTEGER NOT NULL
) STRICT;
CREATE TABLE watch_prs (
  pr         TEXT PRIMARY KEY NOT NULL CHECK (length(pr) BETWEEN 1 AND 256),
  meta       TEXT,
  etag       TEXT NOT NULL,
  known_ids  TEXT NOT NULL,
  last_event INTEGER NOT NULL,
  next_poll  INTEGER NOT NULL,
  failures   INTEGER NOT NULL,
  dropped    INTEGER NOT NULL CHECK (dropped IN (0, 1))
) STRICT;
CREATE TABLE watch_hosts (
  host       TEXT PRIMARY KEY NOT NULL,
  not_before INTEGER NOT NULL,
  failures   INTEGER NOT NULL
) STRICT;
CREATE TABLE watch_lists (
  repo    TEXT PRIMARY KEY NOT NULL,
  etag    TEXT NOT NULL,
  numbers TEXT NOT NULL
) STRICT;
CREATE TABLE watch_hints (
  seq          INTEGER PRIMARY KEY,
  pr           TEXT NOT NULL,
  line         TEXT NOT NULL,
  worktree     TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  delivered_at INTEGER
) STRICT;
CREATE INDEX watch_hints_undelivered ON watch_hints (seq) WHERE delivered_at IS NULL;
CREATE TABLE pr_state (
  pr         TEXT PRIMARY KEY NOT NULL CHECK (length(pr) BETWEEN 1 AND 256),
  phase      TEXT NOT NULL,
  head_sha   TEXT NOT NULL,
  blocked_on TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE TABLE pr_state_rounds (
  pr    TEXT NOT NULL,
  round INTEGER NOT NULL CHECK (round >= 1),
  asked TEXT NOT NULL,
  PRIMARY KEY (pr, round)
) STRICT;
INSERT INTO watch_schema (version) VALUES (1);
)sql";

Status Transaction(SqliteConnection& conn, const std::function<Status()>& body) {
  GENTLE_RETURN_IF_ERROR(WatchDb::DbStatus(conn.Exec("BEGIN IMMEDIATE")));
  Status status = body();
  if (status.ok()) status = WatchDb::DbStatus(conn.Exec("COMMIT"));
  if (!status.ok() && !conn.Autocommit()) (void)conn.Exec("ROLLBACK");
  return status;
}

Status Migrate(SqliteConnection& conn) {
  return Transaction(conn, [&]() -> Status {
    GENTLE_ASSIGN_OR_RETURN(int64_t version, WatchDb::SchemaVersion(conn));
    GENTLE_RETURN_IF_ERROR(WatchDb::CheckVersion(version));
    if (version == 0) return WatchDb::DbStatus(conn.Exec(kWatchMigrateTo1));
    return Status::Ok();
  });
}

// The file must be a seen ledger (the ledger owns it): its writer creates or recovers it.
Status EnsureLedger(const std::string& common_dir) {
  // Always through the ledger's own writer, which adds nothing here: it creates the file, takes
  // an existing ledger as it is (refusing one that is not a seen ledger), and migrates an empty
  // version-0 file a ledger writer left when it was killed before its migration committed. Taking
  // such a file as it is would add the watcher's tables to it, and the ledger's writers would
  // then refuse it as not theirs.
  return loop::Add(common_dir, "github:gentle-ai/watch#1", {}, loop::SeenKind::kHandled).status();
}

std::string EncodeIds(const std::vector<std::string>& ids) { return nlohmann::json(ids).dump(); }

Status WritePr(SqliteConnection& conn, const PrRow& row) {
  GENTLE_ASSIGN_OR_RETURN(
      Statement stmt,
      conn.Prepare("INSERT INTO watch_prs (pr, meta, etag, known_ids, last_event, next_poll, "
                   "failures, dropped) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (pr) DO "
                   "UPDATE SET meta = excluded.meta, etag = excluded.etag, known_ids = "
                   "excluded.known_ids, last_event = excluded.last_event, next_poll = "
                   "excluded.next_poll, failures = excluded.failures, dropped = excluded.dropped"));
  stmt.BindAll(row.pr, row.meta ? EncodePrMeta(*row.meta) : std::string(), row.etag,
               EncodeIds(row.known_ids), row.last_event, row.next_poll, row.failures,
               int64_t{row.dropped ? 1 : 0});
  return WatchDb::DbStatus(stmt.Run());
}

}  // namespace

Result<WatchDb> WatchDb::Open(const std::string& common_dir, bool create) {
  if (!create) return OpenReadOnly(common_dir);
  GENTLE_RETURN_IF_ERROR(EnsureLedger(common_dir));
  const std::string path = loop::SeenLedgerPath(common_dir);
  GENTLE_RETURN_IF_ERROR(loop::LedgerStatus(store::CheckNoSymlinks(common_dir, path)));
  auto opened = SqliteConnection::Open(path, SqliteConnection::Mode::kReadWriteCreate,
                                       store::LockTimeoutMillis());
  if (!opened.ok()) return DbStatus(opened.status());
  std::unique_ptr<SqliteConnection> conn = std::move(opened).value();
  // Keep -wal and -shm at close, as the ledger's writers do, so its readers create nothing.
  int persist = 1;
  sqlite3_file_control(conn->raw(), "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
  GENTLE_RETURN_IF_ERROR(DbStatus(conn->Exec("PRAGMA synchronous = FULL")));
  GENTLE_RETURN_IF_ERROR(Migrate(*conn));
  return WatchDb(std::move(conn));
}

Status WatchDb::InTransaction(const std::function<Status()>& body) {
  return Transaction(*conn_, body);
}

Status WatchDb::SavePr(const PrRow& row) { return WritePr(*conn_, row); }

Status WatchDb::SavePrs(const std::vector<PrRow>& rows) {
  if (rows.empty()) return Status::Ok();
  return Transaction(*conn_, [&]() -> Status {
    for (const PrRow& row : rows) GENTLE_RETURN_IF_ERROR(WritePr(*conn_, row));
    return Status::Ok();
  });
}

Result<int64_t> WatchDb::SavePrWithHint(const PrRow& row, const std::string& line,
                                        const std::string& worktree, int64_t now) {
  int64_t seq = 0;
  GENTLE_RETURN_IF_ERROR(Transaction(*conn_, [&]() -> Status {
    GENTLE_RETURN_IF_ERROR(WritePr(*conn_, row));
    GENTLE_ASSIGN_OR_RETURN(Statement stmt,
                            conn_->Prepare("INSERT INTO watch_hints (pr, line, worktree, "
                                           "created_at) VALUES (?1, ?2, ?3, ?4) RETURNING seq"));
    stmt.BindAll(row.pr, line, worktree, now);
    GENTLE_ASSIGN_OR_RETURN(std::optional<int64_t> got, store::index::FirstInt(stmt));
    if (!got) return Status(Code::kInternal, "watch state: no seq for a new hint");
    seq = *got;
    return Status::Ok();
  }));
  return seq;
}

Status WatchDb::SaveHost(const std::string& host, const HostRow& row) {
  GENTLE_ASSIGN_OR_RETURN(
      Statement stmt,
      conn_->Prepare("INSERT INTO watch_hosts (host, not_before, failures) VALUES (?1, ?2, ?3) "
                     "ON CONFLICT (host) DO UPDATE SET not_before = excluded.not_before, "
                     "failures = excluded.failures"));
  stmt.BindAll(host, row.not_before, row.failures);
  return DbStatus(stmt.Run());
}

Status WatchDb::SaveList(const std::string& repo, const ListRow& row) {
  GENTLE_ASSIGN_OR_RETURN(
      Statement stmt,
      conn_->Prepare("INSERT INTO watch_lists (repo, etag, numbers) VALUES (?1, ?2, ?3) ON "
                     "CONFLICT (repo) DO UPDATE SET etag = excluded.etag, numbers = "
                     "excluded.numbers"));
  stmt.BindAll(repo, row.etag, nlohmann::json(row.numbers).dump());
  return DbStatus(stmt.Run());
}

Status WatchDb::MarkDelivered(int64_t seq, int64_t now) {
  GENTLE_ASSIGN_OR_RETURN(
      Statement stmt, conn_->Prepare("UPDATE watch_hints SET delivered_at = ?2 WHERE seq = ?1"));
  stmt.BindAll(seq, now);
  return DbStatus(stmt.Run());
}

}  // namespace gentle::watch
