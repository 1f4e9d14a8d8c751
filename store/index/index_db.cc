#include "store/index/index_db.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <span>
#include <utility>

#include "store/index/index_schema.h"
#include "store/index/sqlite_handle.h"
#include "store/time_order.h"

namespace gentle::store::index {
namespace {

// Every statement the index runs; each is prepared once per connection (at open, which also proves
// the schema matches its version) and reused.
constexpr const char* kUpsertLineage = R"sql(
INSERT INTO lineages (lineage_id, state, kind, created_at, created_order, path_count, revision,
                      target_identity, status)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
ON CONFLICT (lineage_id) DO UPDATE SET
  state = excluded.state, kind = excluded.kind, created_at = excluded.created_at,
  created_order = excluded.created_order, path_count = excluded.path_count,
  revision = excluded.revision, target_identity = excluded.target_identity,
  status = excluded.status)sql";
constexpr const char* kCommitLineage =
    "UPDATE lineages SET status = 'committed' WHERE lineage_id = ?1";
constexpr const char* kDeleteLineage = "DELETE FROM lineages WHERE lineage_id = ?1";
constexpr const char* kFindLineage =
    "SELECT lineage_id, state, kind, created_at, path_count, revision, target_identity, status "
    "FROM lineages WHERE lineage_id = ?1";
constexpr const char* kListLineages =
    "SELECT lineage_id, state, kind, created_at, path_count, revision, target_identity, status "
    "FROM lineages ORDER BY created_order, lineage_id";
constexpr const char* kPreparedLineages =
    "SELECT lineage_id, state, kind, created_at, path_count, revision, target_identity, status "
    "FROM lineages WHERE status = 'prepared' ORDER BY lineage_id";

constexpr const char* kUpsertTombstone = R"sql(
INSERT INTO tombstones (key, lineage_id, target_identity, repository, status)
VALUES (?1, ?2, ?3, ?4, ?5)
ON CONFLICT (key) DO UPDATE SET
  lineage_id = excluded.lineage_id, target_identity = excluded.target_identity,
  repository = excluded.repository, status = excluded.status)sql";
constexpr const char* kCommitTombstone =
    "UPDATE tombstones SET status = 'committed' WHERE key = ?1";
constexpr const char* kDeleteTombstone = "DELETE FROM tombstones WHERE key = ?1";
// 'committed' sorts before 'prepared', so ORDER BY status prefers the committed row; the order is
// the index's own, so the lookup is one keyed search with no sort.
constexpr const char* kFindTombstone =
    "SELECT key, lineage_id, target_identity, repository, status FROM tombstones "
    "WHERE lineage_id = ?1 ORDER BY status, key LIMIT 1";
constexpr const char* kPreparedTombstones =
    "SELECT key, lineage_id, target_identity, repository, status FROM tombstones "
    "WHERE status = 'prepared' ORDER BY key";

constexpr const char* kUpsertQuarantine = R"sql(
INSERT INTO quarantine (quarantine_dir, lineage_id, audit_path, reason, actor, reclaimed_at,
                        reclaimed_order, status)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
ON CONFLICT (quarantine_dir) DO UPDATE SET
  lineage_id = excluded.lineage_id, audit_path = excluded.audit_path, reason = excluded.reason,
  actor = excluded.actor, reclaimed_at = excluded.reclaimed_at,
  reclaimed_order = excluded.reclaimed_order, status = excluded.status)sql";
constexpr const char* kCommitQuarantine =
    "UPDATE quarantine SET status = 'committed' WHERE quarantine_dir = ?1";
constexpr const char* kDeleteQuarantine = "DELETE FROM quarantine WHERE quarantine_dir = ?1";
constexpr const char* kFindQuarantine =
    "SELECT quarantine_dir, lineage_id, audit_path, reason, actor, reclaimed_at, status "
    "FROM quarantine WHERE lineage_id = ?1 "
    "ORDER BY status, reclaimed_order DESC, quarantine_dir DESC LIMIT 1";
constexpr const char* kPreparedQuarantine =
    "SELECT quarantine_dir, lineage_id, audit_path, reason, actor, reclaimed_at, status "
    "FROM quarantine WHERE status = 'prepared' ORDER BY quarantine_dir";

constexpr const char* kListTombstones =
    "SELECT key, lineage_id, target_identity, repository, status FROM tombstones "
    "ORDER BY lineage_id, status, key";
constexpr const char* kListQuarantine =
    "SELECT quarantine_dir, lineage_id, audit_path, reason, actor, reclaimed_at, status "
    "FROM quarantine ORDER BY lineage_id, status, reclaimed_order DESC, quarantine_dir DESC";

// What a read-only connection can run; validating only these keeps a reader's open cheap (parsing
// all of kAllStatements was a quarter of a small export-context).
constexpr const char* kReadStatements[] = {
    kListTombstones, kListQuarantine,     kFindLineage,    kListLineages,       kPreparedLineages,
    kFindTombstone,  kPreparedTombstones, kFindQuarantine, kPreparedQuarantine,
};
constexpr const char* kLineageLookupStatements[] = {kFindTombstone, kFindQuarantine};
constexpr const char* kTombstoneLookupStatements[] = {kFindTombstone};
constexpr const char* kAllStatements[] = {
    kListTombstones,   kListQuarantine, kUpsertLineage,      kCommitLineage,    kDeleteLineage,
    kFindLineage,      kListLineages,   kPreparedLineages,   kUpsertTombstone,  kCommitTombstone,
    kDeleteTombstone,  kFindTombstone,  kPreparedTombstones, kUpsertQuarantine, kCommitQuarantine,
    kDeleteQuarantine, kFindQuarantine, kPreparedQuarantine,
};

Result<RowStatus> ParseRowStatus(const std::string& text) {
  if (text == "prepared") return RowStatus::kPrepared;
  if (text == "committed") return RowStatus::kCommitted;
  return Status(Code::kCorrupted, "index: unknown row status '" + text + "'");
}

Result<LineageRow> ReadLineage(const Statement& stmt) {
  LineageRow row;
  row.lineage_id = stmt.ColumnText(0);
  row.state = stmt.ColumnText(1);
  row.kind = stmt.ColumnText(2);
  row.created_at = stmt.ColumnText(3);
  row.path_count = stmt.ColumnInt(4);
  row.revision = stmt.ColumnText(5);
  row.target_identity = stmt.ColumnText(6);
  GENTLE_ASSIGN_OR_RETURN(row.status, ParseRowStatus(stmt.ColumnText(7)));
  return row;
}

Result<TombstoneRow> ReadTombstone(const Statement& stmt) {
  TombstoneRow row;
  row.key = stmt.ColumnText(0);
  row.lineage_id = stmt.ColumnText(1);
  row.target_identity = stmt.ColumnText(2);
  row.repository = stmt.ColumnText(3);
  GENTLE_ASSIGN_OR_RETURN(row.status, ParseRowStatus(stmt.ColumnText(4)));
  return row;
}

Result<QuarantineRow> ReadQuarantine(const Statement& stmt) {
  QuarantineRow row;
  row.quarantine_dir = stmt.ColumnText(0);
  row.lineage_id = stmt.ColumnText(1);
  row.audit_path = stmt.ColumnText(2);
  row.reason = stmt.ColumnText(3);
  row.actor = stmt.ColumnText(4);
  row.reclaimed_at = stmt.ColumnText(5);
  GENTLE_ASSIGN_OR_RETURN(row.status, ParseRowStatus(stmt.ColumnText(6)));
  return row;
}

// Runs `sql` with one text parameter and reads at most one row with `read`.
template <typename Row, typename Reader>
Result<std::optional<Row>> FindOne(SqliteConnection& conn, const char* sql, std::string_view key,
                                   Reader read) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(sql));
  stmt.Bind(1, key);
  GENTLE_ASSIGN_OR_RETURN(bool has_row, stmt.Step());
  if (!has_row) return std::optional<Row>();
  GENTLE_ASSIGN_OR_RETURN(Row row, read(stmt));
  return std::optional<Row>(std::move(row));
}

// Appends every row `sql` returns to `out`.
template <typename Row, typename Reader>
Status ReadAll(SqliteConnection& conn, const char* sql, Reader read, std::vector<Row>& out) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(sql));
  while (true) {
    GENTLE_ASSIGN_OR_RETURN(bool has_row, stmt.Step());
    if (!has_row) return Status::Ok();
    GENTLE_ASSIGN_OR_RETURN(Row row, read(stmt));
    out.push_back(std::move(row));
  }
}

// Runs a cached statement that takes no parameters and returns no rows.
Status RunCached(SqliteConnection& conn, const char* sql) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(sql));
  return stmt.Run();
}

Result<std::string> ReadTextPragma(SqliteConnection& conn, const char* sql) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn.PrepareUncached(sql));
  GENTLE_ASSIGN_OR_RETURN(bool has_row, stmt.Step());
  if (!has_row) return Status(Code::kInternal, std::string("index: no result from ") + sql);
  return stmt.ColumnText(0);
}

}  // namespace

std::string_view RowStatusName(RowStatus status) {
  return status == RowStatus::kCommitted ? "committed" : "prepared";
}

IndexDb::IndexDb(std::unique_ptr<SqliteConnection> conn, bool read_only, int schema_version)
    : conn_(std::move(conn)), read_only_(read_only), schema_version_(schema_version) {}

IndexDb::~IndexDb() {
  if (!read_only_ || conn_->Autocommit()) return;
  // Ends the reader's snapshot. A reader wrote nothing, and closing the connection right after
  // ends the transaction whatever COMMIT answered, so there is nothing left to handle here.
  Status ended = conn_->Exec("COMMIT");
  static_cast<void>(ended);
}

Result<std::unique_ptr<IndexDb>> IndexDb::OpenReadWrite(const std::string& path,
                                                        const IndexOptions& options) {
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<SqliteConnection> conn,
                          SqliteConnection::Open(path, SqliteConnection::Mode::kReadWriteCreate,
                                                 options.busy_timeout_ms));
  // The first statement reads the header: a file that is not SQLite fails here with kCorrupted.
  GENTLE_ASSIGN_OR_RETURN(std::string journal, ReadTextPragma(*conn, "PRAGMA journal_mode = WAL"));
  if (journal != "wal") {
    return Status(Code::kInternal, "index: cannot enable WAL (journal_mode is " + journal + ")");
  }
  // Keep index.sqlite-wal and -shm when this connection closes (the WAL is checkpointed and
  // truncated to zero bytes instead of deleted), so that a later read-only open finds them and
  // creates nothing: read paths leave the store's directory listing unchanged.
  int persist = 1;
  sqlite3_file_control(conn->raw(), "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
  GENTLE_RETURN_IF_ERROR(conn->Exec("PRAGMA journal_size_limit = 0"));
  return Finish(std::move(conn), /*read_only=*/false, options);
}

Result<std::unique_ptr<IndexDb>> IndexDb::OpenReadOnly(const std::string& path,
                                                       const IndexOptions& options) {
  GENTLE_ASSIGN_OR_RETURN(
      std::unique_ptr<SqliteConnection> conn,
      SqliteConnection::Open(path, SqliteConnection::Mode::kReadOnly, options.busy_timeout_ms));
  return Finish(std::move(conn), /*read_only=*/true, options);
}

Status IndexDb::WriteNewFile(const std::string& path, const IndexSnapshot& snapshot) {
  struct stat st;
  if (lstat(path.c_str(), &st) == 0 || errno != ENOENT) {
    return Status(Code::kInternal, "index: " + path + " already exists");
  }
  {
    GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<IndexDb> db, OpenReadWrite(path));
    GENTLE_RETURN_IF_ERROR(db->ReplaceAll(snapshot));
    GENTLE_ASSIGN_OR_RETURN(Statement checkpoint,
                            db->conn_->PrepareUncached("PRAGMA wal_checkpoint(TRUNCATE)"));
    GENTLE_ASSIGN_OR_RETURN(bool has_row, checkpoint.Step());
    if (!has_row || checkpoint.ColumnInt(0) != 0) {
      return Status(Code::kInternal, "index: cannot checkpoint " + path);
    }
    // This connection is the file's only one: closing it deletes -wal and -shm.
    int persist = 0;
    sqlite3_file_control(db->conn_->raw(), "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
  }
  for (const char* suffix : {"-wal", "-shm"}) {
    if (lstat((path + suffix).c_str(), &st) == 0) {
      return Status(Code::kInternal, "index: " + path + suffix + " was left after closing");
    }
  }
  const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return Status(Code::kInternal, "index: cannot open " + path + ": " + strerror(errno));
  const bool synced = fsync(fd) == 0;
  const int fsync_errno = errno;
  close(fd);
  if (!synced) {
    return Status(Code::kInternal, "index: cannot fsync " + path + ": " + strerror(fsync_errno));
  }
  return Status::Ok();
}

Result<std::unique_ptr<IndexDb>> IndexDb::Finish(std::unique_ptr<SqliteConnection> conn,
                                                 bool read_only, const IndexOptions& options) {
  if (read_only) {
    // One read transaction from open to close (ended by ~IndexDb): the reader sees one snapshot,
    // and SQLite maps the read-only -shm and takes its read lock once instead of per statement.
    GENTLE_RETURN_IF_ERROR(conn->Exec("BEGIN DEFERRED"));
  } else {  // both only matter to writes
    GENTLE_RETURN_IF_ERROR(conn->Exec("PRAGMA synchronous = FULL"));
    GENTLE_RETURN_IF_ERROR(conn->Exec("PRAGMA foreign_keys = ON"));
  }
  std::unique_ptr<IndexDb> db(new IndexDb(std::move(conn), read_only, 0));
  if (options.quick_check) GENTLE_RETURN_IF_ERROR(db->QuickCheck());

  if (read_only) {
    GENTLE_ASSIGN_OR_RETURN(int version, ReadSchemaVersion(*db->conn_));
    GENTLE_RETURN_IF_ERROR(CheckSchemaOwnership(*db->conn_, version));
    if (version < kIndexSchemaVersion) {
      // Uninitialised (0) or older: a reader cannot migrate; the caller falls back to the files.
      return Status(Code::kNotFound, "index: schema_version " + std::to_string(version) +
                                         " needs initialisation by a read-write open");
    }
  } else {
    GENTLE_RETURN_IF_ERROR(MigrateSchema(*db->conn_));
  }
  db->schema_version_ = kIndexSchemaVersion;

  // Every statement this connection may run must compile against the tables, or the index does not
  // match its schema_version (a reader then falls back to the files).
  std::span<const char* const> statements = kAllStatements;
  if (read_only) {
    switch (options.read_use) {
      case IndexOptions::ReadUse::kAll:
        statements = kReadStatements;
        break;
      case IndexOptions::ReadUse::kLineageLookups:
        statements = kLineageLookupStatements;
        break;
      case IndexOptions::ReadUse::kTombstoneLookup:
        statements = kTombstoneLookupStatements;
        break;
    }
  }
  for (const char* sql : statements) {
    Result<Statement> stmt = db->conn_->Prepare(sql);
    if (!stmt.ok()) {
      if (stmt.status().code() == Code::kBusy) return stmt.status();
      return Status(Code::kCorrupted, "index: tables do not match schema_version " +
                                          std::to_string(kIndexSchemaVersion) + ": " +
                                          stmt.status().message());
    }
  }
  return db;
}

Status IndexDb::WriteTransaction(const std::function<Status()>& body) {
  if (read_only_) return Status(Code::kInternal, "index: opened read-only");
  if (in_transaction_) return Status(Code::kInternal, "index: nested write transaction");
  GENTLE_RETURN_IF_ERROR(RunCached(*conn_, "BEGIN IMMEDIATE"));
  in_transaction_ = true;
  Status status;
  try {
    status = body();
  } catch (const std::exception& e) {
    status = Status(Code::kInternal, std::string("index: exception in transaction: ") + e.what());
  } catch (...) {
    status = Status(Code::kInternal, "index: unknown exception in transaction");
  }
  in_transaction_ = false;
  if (status.ok()) status = RunCached(*conn_, "COMMIT");
  if (!status.ok() && !conn_->Autocommit()) {
    // The failure stays the answer; a failed ROLLBACK is named beside it.
    if (Status rollback = RunCached(*conn_, "ROLLBACK"); !rollback.ok()) {
      status.WithDetail("rollback", rollback.message());
    }
  }
  return status;
}

Status IndexDb::Write(const std::function<Status()>& body) {
  if (read_only_) return Status(Code::kInternal, "index: opened read-only");
  if (in_transaction_) return body();
  return WriteTransaction(body);
}

Status IndexDb::MarkCommitted(const char* sql, std::string_view key, std::string_view what) {
  return Write([&]() -> Status {
    GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn_->Prepare(sql));
    GENTLE_RETURN_IF_ERROR(stmt.Bind(1, key).Run());
    if (conn_->Changes() == 0) {
      return Status(Code::kNotFound,
                    "index: no " + std::string(what) + " row " + std::string(key) + " to commit");
    }
    return Status::Ok();
  });
}

Status IndexDb::DeleteByKey(const char* sql, std::string_view key) {
  return Write([&]() -> Status {
    GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn_->Prepare(sql));
    return stmt.Bind(1, key).Run();
  });
}

Status IndexDb::UpsertLineage(const LineageRow& row) {
  return Write([&]() -> Status {
    GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn_->Prepare(kUpsertLineage));
    stmt.Bind(1, row.lineage_id)
        .Bind(2, row.state)
        .Bind(3, row.kind)
        .Bind(4, row.created_at)
        .Bind(5, TimeOrderKey(row.created_at))
        .Bind(6, row.path_count)
        .Bind(7, row.revision)
        .Bind(8, row.target_identity)
        .Bind(9, RowStatusName(row.status));
    return stmt.Run();
  });
}

Status IndexDb::MarkLineageCommitted(std::string_view lineage_id) {
  return MarkCommitted(kCommitLineage, lineage_id, "lineage");
}

Status IndexDb::DeleteLineage(std::string_view lineage_id) {
  return DeleteByKey(kDeleteLineage, lineage_id);
}

Result<std::optional<LineageRow>> IndexDb::FindLineage(std::string_view lineage_id) {
  return FindOne<LineageRow>(*conn_, kFindLineage, lineage_id, ReadLineage);
}

Status IndexDb::ListLineages(const std::function<bool(const LineageRow&)>& visit) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn_->Prepare(kListLineages));
  while (true) {
    GENTLE_ASSIGN_OR_RETURN(bool has_row, stmt.Step());
    if (!has_row) return Status::Ok();
    GENTLE_ASSIGN_OR_RETURN(LineageRow row, ReadLineage(stmt));
    if (!visit(row)) return Status::Ok();
  }
}

Status IndexDb::ListTombstones(const std::function<bool(const TombstoneRow&)>& visit) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn_->Prepare(kListTombstones));
  while (true) {
    GENTLE_ASSIGN_OR_RETURN(bool has_row, stmt.Step());
    if (!has_row) return Status::Ok();
    GENTLE_ASSIGN_OR_RETURN(TombstoneRow row, ReadTombstone(stmt));
    if (!visit(row)) return Status::Ok();
  }
}

Status IndexDb::ListQuarantine(const std::function<bool(const QuarantineRow&)>& visit) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn_->Prepare(kListQuarantine));
  while (true) {
    GENTLE_ASSIGN_OR_RETURN(bool has_row, stmt.Step());
    if (!has_row) return Status::Ok();
    GENTLE_ASSIGN_OR_RETURN(QuarantineRow row, ReadQuarantine(stmt));
    if (!visit(row)) return Status::Ok();
  }
}

Status IndexDb::UpsertTombstone(const TombstoneRow& row) {
  return Write([&]() -> Status {
    GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn_->Prepare(kUpsertTombstone));
    stmt.Bind(1, row.key)
        .Bind(2, row.lineage_id)
        .Bind(3, row.target_identity)
        .Bind(4, row.repository)
        .Bind(5, RowStatusName(row.status));
    return stmt.Run();
  });
}

Status IndexDb::MarkTombstoneCommitted(std::string_view key) {
  return MarkCommitted(kCommitTombstone, key, "tombstone");
}

Status IndexDb::DeleteTombstone(std::string_view key) { return DeleteByKey(kDeleteTombstone, key); }

Result<std::optional<TombstoneRow>> IndexDb::FindTombstoneByLineage(std::string_view lineage_id) {
  return FindOne<TombstoneRow>(*conn_, kFindTombstone, lineage_id, ReadTombstone);
}

Status IndexDb::UpsertQuarantine(const QuarantineRow& row) {
  return Write([&]() -> Status {
    GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn_->Prepare(kUpsertQuarantine));
    stmt.Bind(1, row.quarantine_dir)
        .Bind(2, row.lineage_id)
        .Bind(3, row.audit_path)
        .Bind(4, row.reason)
        .Bind(5, row.actor)
        .Bind(6, row.reclaimed_at)
        .Bind(7, TimeOrderKey(row.reclaimed_at))
        .Bind(8, RowStatusName(row.status));
    return stmt.Run();
  });
}

Status IndexDb::MarkQuarantineCommitted(std::string_view quarantine_dir) {
  return MarkCommitted(kCommitQuarantine, quarantine_dir, "quarantine");
}

Status IndexDb::DeleteQuarantine(std::string_view quarantine_dir) {
  return DeleteByKey(kDeleteQuarantine, quarantine_dir);
}

Result<std::optional<QuarantineRow>> IndexDb::FindQuarantineByLineage(std::string_view lineage_id) {
  return FindOne<QuarantineRow>(*conn_, kFindQuarantine, lineage_id, ReadQuarantine);
}

Result<IndexSnapshot> IndexDb::ListPrepared() {
  IndexSnapshot out;
  auto read_all = [&]() -> Status {
    GENTLE_RETURN_IF_ERROR(ReadAll(*conn_, kPreparedLineages, ReadLineage, out.lineages));
    GENTLE_RETURN_IF_ERROR(ReadAll(*conn_, kPreparedTombstones, ReadTombstone, out.tombstones));
    return ReadAll(*conn_, kPreparedQuarantine, ReadQuarantine, out.quarantine);
  };
  if (in_transaction_ || read_only_) {  // a reader is always inside its snapshot
    GENTLE_RETURN_IF_ERROR(read_all());
    return out;
  }
  // One read transaction, so the three tables are seen at the same instant.
  GENTLE_RETURN_IF_ERROR(RunCached(*conn_, "BEGIN DEFERRED"));
  Status status = read_all();
  Status ended = RunCached(*conn_, "COMMIT");
  if (!status.ok()) return status;
  if (!ended.ok()) return ended;
  return out;
}

Status IndexDb::InsertAll(const IndexSnapshot& snapshot) {
  for (const LineageRow& row : snapshot.lineages) GENTLE_RETURN_IF_ERROR(UpsertLineage(row));
  for (const TombstoneRow& row : snapshot.tombstones) GENTLE_RETURN_IF_ERROR(UpsertTombstone(row));
  for (const QuarantineRow& row : snapshot.quarantine) {
    GENTLE_RETURN_IF_ERROR(UpsertQuarantine(row));
  }
  return Status::Ok();
}

Status IndexDb::ReplaceAll(const IndexSnapshot& snapshot) {
  return Write([&]() -> Status {
    GENTLE_RETURN_IF_ERROR(RunCached(*conn_, "DELETE FROM lineages"));
    GENTLE_RETURN_IF_ERROR(RunCached(*conn_, "DELETE FROM tombstones"));
    GENTLE_RETURN_IF_ERROR(RunCached(*conn_, "DELETE FROM quarantine"));
    return InsertAll(snapshot);
  });
}

Result<std::string> IndexDb::ExplainQueryPlan(IndexQuery query) {
  const char* sql = nullptr;
  bool has_parameter = true;
  switch (query) {
    case IndexQuery::kLineageById:
      sql = kFindLineage;
      break;
    case IndexQuery::kTombstoneByLineage:
      sql = kFindTombstone;
      break;
    case IndexQuery::kQuarantineByLineage:
      sql = kFindQuarantine;
      break;
    case IndexQuery::kListLineages:
      sql = kListLineages;
      has_parameter = false;
      break;
  }
  if (sql == nullptr) return Status(Code::kInternal, "index: unknown query");
  GENTLE_ASSIGN_OR_RETURN(Statement stmt,
                          conn_->PrepareUncached(std::string("EXPLAIN QUERY PLAN ") + sql));
  if (has_parameter) stmt.Bind(1, std::string_view("review-0"));
  std::string plan;
  while (true) {
    GENTLE_ASSIGN_OR_RETURN(bool has_row, stmt.Step());
    if (!has_row) return plan;
    plan += stmt.ColumnText(3);  // columns: id, parent, notused, detail
    plan += '\n';
  }
}

Status IndexDb::QuickCheck() {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn_->PrepareUncached("PRAGMA quick_check"));
  GENTLE_ASSIGN_OR_RETURN(bool has_row, stmt.Step());
  std::string first = has_row ? stmt.ColumnText(0) : std::string("no result");
  if (first != "ok") return Status(Code::kCorrupted, "index: quick_check failed: " + first);
  return Status::Ok();
}

}  // namespace gentle::store::index
