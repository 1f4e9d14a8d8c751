#include "store/index/sqlite_handle.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "store/index/database_files.h"
#include "store/index/wal_vfs.h"

namespace gentle::store::index {

Status SqliteStatus(int rc, sqlite3* db, std::string_view what) {
  std::string message = "index: ";
  message += what;
  message += ": ";
  message += (db != nullptr && sqlite3_errcode(db) == rc) ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Status(Code::kBusy, std::move(message));
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
    // WAL files that break SQLite's locking protocol: a read-only connection gave up retrying
    // (e.g. a -wal holding only a header, with no writer to recover it). Not contention.
    case SQLITE_PROTOCOL:
      return Status(Code::kCorrupted, std::move(message));
    case SQLITE_READONLY:
      // A read-only connection that meets a hot rollback journal (index.sqlite-journal) would have
      // to roll it back into the file: the index is not readable as it lies, like a damaged one.
      if (rc == SQLITE_READONLY_ROLLBACK) return Status(Code::kCorrupted, std::move(message));
      return Status(Code::kInternal, std::move(message));
    case SQLITE_CANTOPEN:
      // The database or a file it needs (e.g. the -wal/-shm of a WAL database in a directory we
      // cannot write) cannot be opened: there is no usable index, the caller falls back to files.
      return Status(Code::kNotFound, std::move(message));
    default:
      return Status(Code::kInternal, std::move(message));
  }
}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_), stmt_(other.stmt_), owned_(other.owned_), bind_error_(other.bind_error_) {
  other.stmt_ = nullptr;
}

Statement::~Statement() {
  if (stmt_ == nullptr) return;
  if (owned_) {
    sqlite3_finalize(stmt_);
  } else {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
}

Statement& Statement::Bind(int index, std::string_view text) {
  int rc =
      sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (rc != SQLITE_OK && bind_error_ == 0) bind_error_ = rc;
  return *this;
}

Statement& Statement::Bind(int index, int64_t value) {
  int rc = sqlite3_bind_int64(stmt_, index, value);
  if (rc != SQLITE_OK && bind_error_ == 0) bind_error_ = rc;
  return *this;
}

Result<bool> Statement::Step() {
  if (bind_error_ != 0) return SqliteStatus(bind_error_, db_, "bind");
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return SqliteStatus(rc, db_, sqlite3_sql(stmt_));
}

Status Statement::Run() {
  while (true) {
    Result<bool> row = Step();
    if (!row.ok()) return row.status();
    if (!*row) return Status::Ok();
  }
}

std::string Statement::ColumnText(int index) const {
  const unsigned char* text = sqlite3_column_text(stmt_, index);
  if (text == nullptr) return std::string();
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<size_t>(sqlite3_column_bytes(stmt_, index)));
}

int64_t Statement::ColumnInt(int index) const { return sqlite3_column_int64(stmt_, index); }

Result<std::optional<int64_t>> FirstInt(Statement& stmt) {
  GENTLE_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row) return std::optional<int64_t>();
  return std::optional<int64_t>(stmt.ColumnInt(0));
}

Result<std::optional<std::string>> FirstText(Statement& stmt) {
  GENTLE_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row) return std::optional<std::string>();
  return std::optional<std::string>(stmt.ColumnText(0));
}

namespace {

Status NoResult(std::string_view who, const char* sql) {
  return Status(Code::kInternal, std::string(who) + ": no result from " + sql);
}

}  // namespace

Result<int64_t> SqliteConnection::QueryInt(const char* sql, std::string_view who) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt, PrepareUncached(sql));
  GENTLE_ASSIGN_OR_RETURN(std::optional<int64_t> value, FirstInt(stmt));
  if (!value) return NoResult(who, sql);
  return *value;
}

Result<std::string> SqliteConnection::QueryText(const char* sql, std::string_view who) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt, PrepareUncached(sql));
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> value, FirstText(stmt));
  if (!value) return NoResult(who, sql);
  return *value;
}

Result<std::unique_ptr<SqliteConnection>> SqliteConnection::Open(const std::string& path, Mode mode,
                                                                 int busy_timeout_ms) {
  // The database and its side files must be regular files (or missing) before SQLite opens any:
  // a FIFO would block the open, a directory or a symlink is not a store file.
  GENTLE_RETURN_IF_ERROR(CheckDatabaseFileKinds(path));
  struct stat st;
  const bool absent = ::lstat(path.c_str(), &st) != 0 && errno == ENOENT;
  if (absent && mode == Mode::kReadOnly) {
    return Status(Code::kNotFound, "index: " + path + " does not exist");
  } else if (absent) {
    // Create it ourselves so it gets mode 0600 (SQLite would use 0644); SQLite gives the -wal and
    // -shm files the mode of the database file. A zero-byte file is an empty database.
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) {
      ::close(fd);
    } else if (errno != EEXIST) {
      return Status(Code::kInternal, "index: cannot create " + path + ": " + std::strerror(errno));
    }
  }

  int flags = SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOMUTEX;
  flags |=
      mode == Mode::kReadOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  // Read-only opens map the WAL's -shm read-only too (readonly_shm=1): a reader then never writes
  // a byte of the store, not even SQLite's shared-memory read marks; when no writer has the
  // wal-index initialised it reads the WAL file into private memory instead.
  std::string name = path;
  if (mode == Mode::kReadOnly) {
    flags |= SQLITE_OPEN_URI;
    name = "file:";
    for (char c : path) {
      if (c == '%' || c == '?' || c == '#') {
        static const char* kHex = "0123456789ABCDEF";
        name += '%';
        name += kHex[(static_cast<unsigned char>(c) >> 4) & 0xf];
        name += kHex[static_cast<unsigned char>(c) & 0xf];
      } else {
        name += c;
      }
    }
    name += "?readonly_shm=1";
  }
  sqlite3* db = nullptr;
  // A read-write connection opens an existing -wal without O_CREAT: no directory sync per process
  // for a file that is kept (store/index/wal_vfs.h).
  int rc = sqlite3_open_v2(name.c_str(), &db, flags,
                           mode == Mode::kReadOnly ? nullptr : ExistingWalVfs());
  if (rc != SQLITE_OK) {
    int sys_errno = db != nullptr ? sqlite3_system_errno(db) : 0;
    Status status = SqliteStatus(rc, db, "open " + path);
    sqlite3_close_v2(db);
    if ((rc & 0xff) == SQLITE_CANTOPEN && mode == Mode::kReadOnly && sys_errno == ENOENT) {
      return Status(Code::kNotFound, "index: " + path + " does not exist");
    }
    if (rc == SQLITE_CANTOPEN_SYMLINK) {
      return Status(Code::kCorrupted, "index: " + path + " is a symlink");
    }
    return status;
  }
  sqlite3_busy_timeout(db, busy_timeout_ms);
  // Defensive mode: SQL cannot corrupt the file (no writable_schema, no journal_mode=OFF tricks).
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  return std::unique_ptr<SqliteConnection>(new SqliteConnection(db));
}

Result<std::unique_ptr<SqliteConnection>> SqliteConnection::OpenImage(std::string_view image) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    Status status = SqliteStatus(rc, db, "open an in-memory copy");
    sqlite3_close_v2(db);
    return status;
  }
  std::unique_ptr<SqliteConnection> conn(new SqliteConnection(db));
  // SQLite owns (and frees) the buffer it is handed.
  auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(image.size() == 0 ? 1 : image.size()));
  if (copy == nullptr) return Status(Code::kInternal, "index: out of memory for an in-memory copy");
  std::memcpy(copy, image.data(), image.size());
  rc = sqlite3_deserialize(db, "main", copy, static_cast<sqlite3_int64>(image.size()),
                           static_cast<sqlite3_int64>(image.size()),
                           SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY);
  if (rc != SQLITE_OK) return SqliteStatus(rc, db, "load an in-memory copy");
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  return conn;
}

SqliteConnection::~SqliteConnection() {
  for (auto& [sql, stmt] : cache_) sqlite3_finalize(stmt);
  sqlite3_close_v2(db_);
}

Status SqliteConnection::Exec(const char* sql) {
  int rc = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) return SqliteStatus(rc, db_, sql);
  return Status::Ok();
}

Result<Statement> SqliteConnection::Prepare(const std::string& sql) {
  auto it = cache_.find(sql);
  if (it != cache_.end()) return Statement(db_, it->second, /*owned=*/false);
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                              SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  if (rc != SQLITE_OK) return SqliteStatus(rc, db_, "prepare " + sql);
  cache_.emplace(sql, stmt);
  return Statement(db_, stmt, /*owned=*/false);
}

Result<Statement> SqliteConnection::PrepareUncached(const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) return SqliteStatus(rc, db_, "prepare " + sql);
  return Statement(db_, stmt, /*owned=*/true);
}

int64_t SqliteConnection::Changes() const { return sqlite3_changes64(db_); }

bool SqliteConnection::Autocommit() const { return sqlite3_get_autocommit(db_) != 0; }

}  // namespace gentle::store::index
