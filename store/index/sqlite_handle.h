// SqliteConnection and Statement: RAII ownership of one SQLite connection and its prepared
// statements, and the one way the store, the seen ledger and the watcher bind parameters and read
// rows (BindAll, Read, ForEachRow, FirstInt, FirstText, QueryInt, QueryText).
//
// A connection caches every statement it prepares (keyed by SQL text) for its lifetime. A Statement
// handed out by Prepare() is a lease on a cached statement: it is reset and its bindings cleared
// when the lease ends, so no statement is ever left mid-iteration holding a read snapshot. A
// connection is used by one thread at a time. SQLite failures become Status values (SqliteStatus);
// nothing throws. This header does not include <sqlite3.h>; only the .cc files of the index see
// SQLite.
#ifndef GENTLE_STORE_INDEX_SQLITE_HANDLE_H_
#define GENTLE_STORE_INDEX_SQLITE_HANDLE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include "store/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace gentle::store::index {

// Maps a SQLite result code to a Status: BUSY/LOCKED -> kBusy, CORRUPT/NOTADB/PROTOCOL ->
// kCorrupted, CANTOPEN -> kNotFound (no usable index), anything else -> kInternal. `what` names the
// failed operation; `db` (may be null) adds its errmsg.
Status SqliteStatus(int rc, sqlite3* db, std::string_view what);

class Statement {
 public:
  // `owned`: finalize (rather than reset) when the lease ends; for uncached statements.
  Statement(sqlite3* db, sqlite3_stmt* stmt, bool owned) : db_(db), stmt_(stmt), owned_(owned) {}
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&&) = delete;
  Statement(const Statement&) = delete;
  ~Statement();  // resets the statement and clears its bindings (or finalizes an owned one)

  // Parameters are 1-based, as in SQL (?1, ?2...). A bind failure is reported by the next Step().
  Statement& Bind(int index, std::string_view text);
  Statement& Bind(int index, int64_t value);
  // Binds `values` to ?1, ?2... in order: an integer (or bool, as 0/1) as INTEGER, anything that
  // converts to std::string_view as TEXT.
  template <typename... T>
  Statement& BindAll(const T&... values) {
    int index = 0;
    (BindOne(++index, values), ...);
    return *this;
  }

  // Advances: true when a row is available, false when done.
  Result<bool> Step();
  // Steps to completion; for statements that return no rows.
  Status Run();

  std::string ColumnText(int index) const;  // 0-based, as in sqlite3_column_*
  int64_t ColumnInt(int index) const;
  // Reads the current row's columns 0, 1... into `out` in order, by type: std::string (TEXT;
  // NULL reads as ""), int64_t (INTEGER), bool (INTEGER, non-zero is true).
  template <typename... T>
  void Read(T&... out) const {
    int index = 0;
    (ReadOne(index++, out), ...);
  }

 private:
  template <typename T>
  void BindOne(int index, const T& value) {
    if constexpr (std::is_integral_v<T>) {
      Bind(index, static_cast<int64_t>(value));
    } else {
      Bind(index, std::string_view(value));
    }
  }
  void ReadOne(int index, std::string& out) const { out = ColumnText(index); }
  void ReadOne(int index, int64_t& out) const { out = ColumnInt(index); }
  void ReadOne(int index, bool& out) const { out = ColumnInt(index) != 0; }

  sqlite3* db_;
  sqlite3_stmt* stmt_;
  bool owned_;
  int bind_error_ = 0;
};

// Steps `stmt` through its rows, calling `visit(const Statement&)` for each; `visit` answers
// Result<bool>: true to go on, false to stop, an error to stop with it.
template <typename Visit>
Status ForEachRow(Statement& stmt, Visit&& visit) {
  while (true) {
    Result<bool> has_row = stmt.Step();
    if (!has_row.ok()) return has_row.status();
    if (!*has_row) return Status::Ok();
    Result<bool> more = visit(static_cast<const Statement&>(stmt));
    if (!more.ok()) return more.status();
    if (!*more) return Status::Ok();
  }
}

// The first column of `stmt`'s first row (nullopt: no row), for single-value queries.
Result<std::optional<int64_t>> FirstInt(Statement& stmt);
Result<std::optional<std::string>> FirstText(Statement& stmt);

class SqliteConnection {
 public:
  enum class Mode { kReadOnly, kReadWriteCreate };

  // Opens `path` (never following a symlink at the last component). kReadOnly never creates the
  // file. `path` and its -wal, -shm and -journal are checked first (CheckDatabaseFileKinds): each
  // must be missing or a regular file. Failures: kNotFound (read-only and the file is absent),
  // kCorrupted (a symlink, directory, FIFO... at one of those paths), kInternal, kBusy.
  static Result<std::unique_ptr<SqliteConnection>> Open(const std::string& path, Mode mode,
                                                        int busy_timeout_ms);
  // A read-only connection to an in-memory copy of `image` (the bytes of a database file), which
  // touches no file. The image must be in rollback-journal form (header bytes 18 and 19 not 2):
  // an in-memory database has no -wal to read.
  static Result<std::unique_ptr<SqliteConnection>> OpenImage(std::string_view image);
  ~SqliteConnection();
  SqliteConnection(const SqliteConnection&) = delete;
  SqliteConnection& operator=(const SqliteConnection&) = delete;

  // Runs SQL that returns no rows we care about (pragmas, DDL, BEGIN/COMMIT). Not cached.
  Status Exec(const char* sql);
  // A lease on the cached statement for `sql`, preparing it on first use.
  Result<Statement> Prepare(const std::string& sql);
  // Prepares `sql` without caching (for one-off diagnostics).
  Result<Statement> PrepareUncached(const std::string& sql);
  // The first column of the first row of `sql`, prepared uncached (pragmas, one-off queries); a
  // statement that returns no row is kInternal "<who>: no result from <sql>".
  Result<int64_t> QueryInt(const char* sql, std::string_view who);
  Result<std::string> QueryText(const char* sql, std::string_view who);
  // Rows changed by the most recent INSERT/UPDATE/DELETE on this connection.
  int64_t Changes() const;
  // False while an explicit transaction is open.
  bool Autocommit() const;

  sqlite3* raw() const { return db_; }

 private:
  explicit SqliteConnection(sqlite3* db) : db_(db) {}

  sqlite3* db_;
  std::unordered_map<std::string, sqlite3_stmt*> cache_;
};

}  // namespace gentle::store::index

#endif  // GENTLE_STORE_INDEX_SQLITE_HANDLE_H_
