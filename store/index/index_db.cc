#include "store/index/index_db.h"

#include <span>
#include <utility>

#include "store/index/index_schema.h"
#include "store/index/index_statements.h"
#include "store/index/sqlite_handle.h"
#include "store/name_table.h"

namespace gentle::store::index {
namespace {

constexpr NameTable kRowStatusNames = MakeNameTable<RowStatus>({
    {RowStatus::kPrepared, "prepared"},
    {RowStatus::kCommitted, "committed"},
});

Result<RowStatus> ReadRowStatus(const std::string& text) {
  if (std::optional<RowStatus> status = ParseRowStatus(text)) return *status;
  return Status(Code::kCorrupted, "index: unknown row status '" + text + "'");
}

Result<LineageRow> ReadLineage(const Statement& stmt) {
  LineageRow row;
  std::string state;
  std::string status;
  stmt.Read(row.lineage_id, state, row.kind, row.created_at, row.path_count, row.revision,
            row.target_identity, status);
  row.state = StateName::FromText(std::move(state));
  GENTLE_ASSIGN_OR_RETURN(row.status, ReadRowStatus(status));
  return row;
}

Result<TombstoneRow> ReadTombstone(const Statement& stmt) {
  TombstoneRow row;
  std::string status;
  stmt.Read(row.key, row.lineage_id, row.target_identity, row.repository, status);
  GENTLE_ASSIGN_OR_RETURN(row.status, ReadRowStatus(status));
  return row;
}

Result<QuarantineRow> ReadQuarantine(const Statement& stmt) {
  QuarantineRow row;
  std::string status;
  stmt.Read(row.quarantine_dir, row.lineage_id, row.audit_path, row.reason, row.actor,
            row.reclaimed_at, status);
  GENTLE_ASSIGN_OR_RETURN(row.status, ReadRowStatus(status));
  return row;
}

// Runs `sql` with one text parameter and reads at most one row with `read`.
template <typename Row, typename Reader>
Result<std::optional<Row>> FindOne(SqliteConnection& conn, const char* sql, std::string_view key,
                                   Reader read) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(sql));
  stmt.BindAll(key);
  GENTLE_ASSIGN_OR_RETURN(bool has_row, stmt.Step());
  if (!has_row) return std::optional<Row>();
  GENTLE_ASSIGN_OR_RETURN(Row row, read(stmt));
  return std::optional<Row>(std::move(row));
}

// Reads every row `sql` returns with `read` and hands it to `visit` until it answers false.
template <typename Row, typename Reader, typename Visit>
Status VisitAll(SqliteConnection& conn, const char* sql, Reader read, Visit visit) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(sql));
  return ForEachRow(stmt, [&](const Statement& row) -> Result<bool> {
    GENTLE_ASSIGN_OR_RETURN(Row value, read(row));
    return visit(value);
  });
}

// Appends every row `sql` returns to `out`.
template <typename Row, typename Reader>
Status ReadAll(SqliteConnection& conn, const char* sql, Reader read, std::vector<Row>& out) {
  return VisitAll<Row>(conn, sql, read, [&](Row& row) {
    out.push_back(std::move(row));
    return true;
  });
}

}  // namespace

std::string_view RowStatusName(RowStatus status) { return kRowStatusNames.Name(status); }

std::optional<RowStatus> ParseRowStatus(std::string_view text) {
  return kRowStatusNames.Parse(text);
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

Result<std::unique_ptr<IndexDb>> IndexDb::OpenReadOnly(const std::string& path,
                                                       const IndexOptions& options) {
  GENTLE_ASSIGN_OR_RETURN(
      std::unique_ptr<SqliteConnection> conn,
      SqliteConnection::Open(path, SqliteConnection::Mode::kReadOnly, options.busy_timeout_ms));
  return Finish(std::move(conn), /*read_only=*/true, options, /*migrate=*/nullptr);
}

Result<std::unique_ptr<IndexDb>> IndexDb::OpenImage(std::string_view image,
                                                    const IndexOptions& options) {
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<SqliteConnection> conn,
                          SqliteConnection::OpenImage(image));
  return Finish(std::move(conn), /*read_only=*/true, options, /*migrate=*/nullptr);
}

Result<std::unique_ptr<IndexDb>> IndexDb::Finish(std::unique_ptr<SqliteConnection> conn,
                                                 bool read_only, const IndexOptions& options,
                                                 Status (*migrate)(SqliteConnection&)) {
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
    GENTLE_RETURN_IF_ERROR(migrate(*db->conn_));
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

Result<std::optional<LineageRow>> IndexDb::FindLineage(std::string_view lineage_id) {
  return FindOne<LineageRow>(*conn_, kFindLineage, lineage_id, ReadLineage);
}

Status IndexDb::ListLineages(const std::function<bool(const LineageRow&)>& visit) {
  return VisitAll<LineageRow>(*conn_, kListLineages, ReadLineage, visit);
}

Status IndexDb::ListTombstones(const std::function<bool(const TombstoneRow&)>& visit) {
  return VisitAll<TombstoneRow>(*conn_, kListTombstones, ReadTombstone, visit);
}

Status IndexDb::ListQuarantine(const std::function<bool(const QuarantineRow&)>& visit) {
  return VisitAll<QuarantineRow>(*conn_, kListQuarantine, ReadQuarantine, visit);
}

Result<std::optional<TombstoneRow>> IndexDb::FindTombstoneByLineage(std::string_view lineage_id) {
  return FindOne<TombstoneRow>(*conn_, kFindTombstone, lineage_id, ReadTombstone);
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
  if (has_parameter) stmt.BindAll(std::string_view("review-0"));
  std::string plan;
  GENTLE_RETURN_IF_ERROR(ForEachRow(stmt, [&](const Statement& row) {
    plan += row.ColumnText(3);  // columns: id, parent, notused, detail
    plan += '\n';
    return true;
  }));
  return plan;
}

Status IndexDb::QuickCheck() {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn_->PrepareUncached("PRAGMA quick_check"));
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> answer, FirstText(stmt));
  const std::string first = answer.value_or("no result");
  if (first != "ok") return Status(Code::kCorrupted, "index: quick_check failed: " + first);
  return Status::Ok();
}

}  // namespace gentle::store::index
