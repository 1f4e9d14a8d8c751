// The writer's half of IndexDb (store/index/index_db.h): opening read-write, writing a new file,
// transactions and every row write. In the store's write target; the reader's half is
// store/index/index_db.cc, in the read target.
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <utility>

#include "store/index/index_db.h"
#include "store/index/index_schema.h"
#include "store/index/index_statements.h"
#include "store/index/sqlite_handle.h"
#include "store/time_order.h"

namespace gentle::store::index {

Result<std::unique_ptr<IndexDb>> IndexDb::OpenReadWrite(const std::string& path,
                                                        const IndexOptions& options) {
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<SqliteConnection> conn,
                          SqliteConnection::Open(path, SqliteConnection::Mode::kReadWriteCreate,
                                                 options.busy_timeout_ms));
  // The first statement reads the header: a file that is not SQLite fails here with kCorrupted.
  GENTLE_ASSIGN_OR_RETURN(std::string journal,
                          conn->QueryText("PRAGMA journal_mode = WAL", "index"));
  if (journal != "wal") {
    return Status(Code::kInternal, "index: cannot enable WAL (journal_mode is " + journal + ")");
  }
  // Keep index.sqlite-wal and -shm when this connection closes (the WAL is checkpointed and
  // truncated to zero bytes instead of deleted), so that a later read-only open finds them and
  // creates nothing: read paths leave the store's directory listing unchanged.
  int persist = 1;
  sqlite3_file_control(conn->raw(), "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
  GENTLE_RETURN_IF_ERROR(conn->Exec("PRAGMA journal_size_limit = 0"));
  return Finish(std::move(conn), /*read_only=*/false, options, MigrateSchema);
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
    GENTLE_ASSIGN_OR_RETURN(std::optional<int64_t> busy, FirstInt(checkpoint));
    if (busy.value_or(1) != 0) {
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
      status.WithDetail(DetailKey::kRollback, rollback.message());
    }
  }
  return status;
}

Status IndexDb::CommitStepTransaction(const std::function<Status()>& body) {
  if (read_only_) return Status(Code::kInternal, "index: opened read-only");
  if (in_transaction_) return Status(Code::kInternal, "index: nested write transaction");
  GENTLE_RETURN_IF_ERROR(conn_->Exec("PRAGMA synchronous = NORMAL"));
  Status status = WriteTransaction(body);
  // Every later transaction of this connection (a prepared step above all) is synced again.
  Status full = conn_->Exec("PRAGMA synchronous = FULL");
  if (status.ok()) return full;
  if (!full.ok()) status.WithDetail(DetailKey::kSynchronous, full.message());
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
    GENTLE_RETURN_IF_ERROR(stmt.BindAll(key).Run());
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
    return stmt.BindAll(key).Run();
  });
}

Status IndexDb::UpsertLineage(const LineageRow& row) {
  return Write([&]() -> Status {
    GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn_->Prepare(kUpsertLineage));
    stmt.BindAll(row.lineage_id, row.state.name(), row.kind, row.created_at,
                 TimeOrderKey(row.created_at), row.path_count, row.revision, row.target_identity,
                 RowStatusName(row.status));
    return stmt.Run();
  });
}

Status IndexDb::MarkLineageCommitted(std::string_view lineage_id) {
  return MarkCommitted(kCommitLineage, lineage_id, "lineage");
}

Status IndexDb::DeleteLineage(std::string_view lineage_id) {
  return DeleteByKey(kDeleteLineage, lineage_id);
}

Status IndexDb::UpsertTombstone(const TombstoneRow& row) {
  return Write([&]() -> Status {
    GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn_->Prepare(kUpsertTombstone));
    stmt.BindAll(row.key, row.lineage_id, row.target_identity, row.repository,
                 RowStatusName(row.status));
    return stmt.Run();
  });
}

Status IndexDb::MarkTombstoneCommitted(std::string_view key) {
  return MarkCommitted(kCommitTombstone, key, "tombstone");
}

Status IndexDb::DeleteTombstone(std::string_view key) { return DeleteByKey(kDeleteTombstone, key); }

Status IndexDb::UpsertQuarantine(const QuarantineRow& row) {
  return Write([&]() -> Status {
    GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn_->Prepare(kUpsertQuarantine));
    stmt.BindAll(row.quarantine_dir, row.lineage_id, row.audit_path, row.reason, row.actor,
                 row.reclaimed_at, TimeOrderKey(row.reclaimed_at), RowStatusName(row.status));
    return stmt.Run();
  });
}

Status IndexDb::MarkQuarantineCommitted(std::string_view quarantine_dir) {
  return MarkCommitted(kCommitQuarantine, quarantine_dir, "quarantine");
}

Status IndexDb::DeleteQuarantine(std::string_view quarantine_dir) {
  return DeleteByKey(kDeleteQuarantine, quarantine_dir);
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

}  // namespace gentle::store::index
