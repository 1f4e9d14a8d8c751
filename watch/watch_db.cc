#include "watch/watch_db.h"

#include <sqlite3.h>

#include <nlohmann/json.hpp>

#include "loop/seen_ledger.h"
#include "loop/seen_schema.h"
#include "store/file_io.h"
#include "store/file_lock.h"
#include "store/index/sqlite_handle.h"
#include "store/strict_json.h"

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

Status DbStatus(const Status& status) {
  if (status.ok()) return status;
  std::string message = status.message();
  if (message.rfind("index: ", 0) == 0) message = message.substr(7);
  return Status(status.code(), "watch state: " + message);
}

Status Transaction(SqliteConnection& conn, const std::function<Status()>& body) {
  GENTLE_RETURN_IF_ERROR(DbStatus(conn.Exec("BEGIN IMMEDIATE")));
  Status status = body();
  if (status.ok()) status = DbStatus(conn.Exec("COMMIT"));
  if (!status.ok() && !conn.Autocommit()) (void)conn.Exec("ROLLBACK");
  return status;
}

// The watcher's schema version: 0 when its table is missing.
Result<int64_t> WatchVersion(SqliteConnection& conn) {
  GENTLE_ASSIGN_OR_RETURN(
      Statement exists,
      conn.Prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = "
                   "'watch_schema'"));
  GENTLE_ASSIGN_OR_RETURN(bool row, exists.Step());
  if (!row || exists.ColumnInt(0) == 0) return int64_t{0};
  GENTLE_ASSIGN_OR_RETURN(Statement version, conn.Prepare("SELECT max(version) FROM watch_schema"));
  GENTLE_ASSIGN_OR_RETURN(row, version.Step());
  return row ? version.ColumnInt(0) : int64_t{0};
}

Status CheckVersion(int64_t version) {
  if (version > kWatchSchemaVersion) {
    return Status(Code::kCorrupted, "watch state from a newer release: schema_version " +
                                        std::to_string(version) + ", this release knows up to " +
                                        std::to_string(kWatchSchemaVersion))
        .WithDetail("schema_version", std::to_string(version));
  }
  return Status::Ok();
}

Status Migrate(SqliteConnection& conn) {
  return Transaction(conn, [&]() -> Status {
    GENTLE_ASSIGN_OR_RETURN(int64_t version, WatchVersion(conn));
    GENTLE_RETURN_IF_ERROR(CheckVersion(version));
    if (version == 0) return DbStatus(conn.Exec(kWatchMigrateTo1));
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

Result<std::vector<std::string>> DecodeIds(const std::string& text) {
  nlohmann::json value;
  store::StrictJsonRefusal why;
  if (!store::ParseStrictJson(text, 2, &value, &why) || !value.is_array()) {
    return Status(Code::kCorrupted, "watch state: a known_ids value is not a JSON array");
  }
  std::vector<std::string> out;
  for (const auto& id : value) {
    if (!id.is_string()) return Status(Code::kCorrupted, "watch state: a known id is not text");
    out.push_back(id.get<std::string>());
  }
  return out;
}

Status WritePr(SqliteConnection& conn, const PrRow& row) {
  GENTLE_ASSIGN_OR_RETURN(
      Statement stmt,
      conn.Prepare("INSERT INTO watch_prs (pr, meta, etag, known_ids, last_event, next_poll, "
                   "failures, dropped) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (pr) DO "
                   "UPDATE SET meta = excluded.meta, etag = excluded.etag, known_ids = "
                   "excluded.known_ids, last_event = excluded.last_event, next_poll = "
                   "excluded.next_poll, failures = excluded.failures, dropped = excluded.dropped"));
  stmt.Bind(1, row.pr)
      .Bind(2, row.meta ? EncodePrMeta(*row.meta) : std::string())
      .Bind(3, row.etag)
      .Bind(4, EncodeIds(row.known_ids))
      .Bind(5, row.last_event)
      .Bind(6, row.next_poll)
      .Bind(7, row.failures)
      .Bind(8, int64_t{row.dropped ? 1 : 0});
  return DbStatus(stmt.Run());
}

}  // namespace

WatchDb::WatchDb(std::unique_ptr<SqliteConnection> conn) : conn_(std::move(conn)) {}
WatchDb::WatchDb(WatchDb&&) noexcept = default;
WatchDb& WatchDb::operator=(WatchDb&&) noexcept = default;
WatchDb::~WatchDb() = default;

Result<WatchDb> WatchDb::Open(const std::string& common_dir, bool create) {
  if (create) GENTLE_RETURN_IF_ERROR(EnsureLedger(common_dir));
  const std::string path = loop::SeenLedgerPath(common_dir);
  GENTLE_RETURN_IF_ERROR(loop::LedgerStatus(store::CheckNoSymlinks(common_dir, path)));
  if (!create) {
    GENTLE_ASSIGN_OR_RETURN(loop::SeenReadiness readiness, loop::InspectSeenLedger(common_dir));
    if (readiness == loop::SeenReadiness::kAbsent) {
      return Status(Code::kNotFound, "watch state: no " + path);
    }
  }
  auto opened = SqliteConnection::Open(
      path, create ? SqliteConnection::Mode::kReadWriteCreate : SqliteConnection::Mode::kReadOnly,
      store::LockTimeoutMillis());
  if (!opened.ok()) return DbStatus(opened.status());
  std::unique_ptr<SqliteConnection> conn = std::move(opened).value();
  if (create) {
    // Keep -wal and -shm at close, as the ledger's writers do, so its readers create nothing.
    int persist = 1;
    sqlite3_file_control(conn->raw(), "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
    GENTLE_RETURN_IF_ERROR(DbStatus(conn->Exec("PRAGMA synchronous = FULL")));
    GENTLE_RETURN_IF_ERROR(Migrate(*conn));
  } else {
    GENTLE_ASSIGN_OR_RETURN(int64_t version, WatchVersion(*conn));
    GENTLE_RETURN_IF_ERROR(CheckVersion(version));
    if (version == 0) return Status(Code::kNotFound, "watch state: nothing recorded in " + path);
  }
  return WatchDb(std::move(conn));
}

Result<std::optional<PrRow>> WatchDb::LoadPr(const std::string& pr) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt,
                          conn_->Prepare("SELECT meta, etag, known_ids, last_event, next_poll, "
                                         "failures, dropped FROM watch_prs WHERE pr = ?1"));
  stmt.Bind(1, pr);
  GENTLE_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row) return std::optional<PrRow>();
  PrRow out;
  out.pr = pr;
  if (const std::string meta = stmt.ColumnText(0); !meta.empty()) {
    GENTLE_ASSIGN_OR_RETURN(PrMeta decoded, DecodePrMeta(meta));
    out.meta = std::move(decoded);
  }
  out.etag = stmt.ColumnText(1);
  GENTLE_ASSIGN_OR_RETURN(out.known_ids, DecodeIds(stmt.ColumnText(2)));
  out.last_event = stmt.ColumnInt(3);
  out.next_poll = stmt.ColumnInt(4);
  out.failures = stmt.ColumnInt(5);
  out.dropped = stmt.ColumnInt(6) != 0;
  return std::optional<PrRow>(std::move(out));
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
    stmt.Bind(1, row.pr).Bind(2, line).Bind(3, worktree).Bind(4, now);
    GENTLE_ASSIGN_OR_RETURN(bool got, stmt.Step());
    if (!got) return Status(Code::kInternal, "watch state: no seq for a new hint");
    seq = stmt.ColumnInt(0);
    return Status::Ok();
  }));
  return seq;
}

Result<HostRow> WatchDb::LoadHost(const std::string& host) {
  GENTLE_ASSIGN_OR_RETURN(
      Statement stmt,
      conn_->Prepare("SELECT not_before, failures FROM watch_hosts WHERE host = ?1"));
  stmt.Bind(1, host);
  GENTLE_ASSIGN_OR_RETURN(bool row, stmt.Step());
  HostRow out;
  if (row) out = HostRow{stmt.ColumnInt(0), stmt.ColumnInt(1)};
  return out;
}

Status WatchDb::SaveHost(const std::string& host, const HostRow& row) {
  GENTLE_ASSIGN_OR_RETURN(
      Statement stmt,
      conn_->Prepare("INSERT INTO watch_hosts (host, not_before, failures) VALUES (?1, ?2, ?3) "
                     "ON CONFLICT (host) DO UPDATE SET not_before = excluded.not_before, "
                     "failures = excluded.failures"));
  stmt.Bind(1, host).Bind(2, row.not_before).Bind(3, row.failures);
  return DbStatus(stmt.Run());
}

Result<std::optional<ListRow>> WatchDb::LoadList(const std::string& repo) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt,
                          conn_->Prepare("SELECT etag, numbers FROM watch_lists WHERE repo = ?1"));
  stmt.Bind(1, repo);
  GENTLE_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row) return std::optional<ListRow>();
  ListRow out;
  out.etag = stmt.ColumnText(0);
  nlohmann::json numbers;
  store::StrictJsonRefusal why;
  if (!store::ParseStrictJson(stmt.ColumnText(1), 2, &numbers, &why) || !numbers.is_array()) {
    return Status(Code::kCorrupted, "watch state: a PR list is not a JSON array");
  }
  for (const auto& n : numbers) {
    if (!n.is_number_integer()) return Status(Code::kCorrupted, "watch state: a PR number");
    out.numbers.push_back(n.get<int64_t>());
  }
  return std::optional<ListRow>(std::move(out));
}

Status WatchDb::SaveList(const std::string& repo, const ListRow& row) {
  GENTLE_ASSIGN_OR_RETURN(
      Statement stmt,
      conn_->Prepare("INSERT INTO watch_lists (repo, etag, numbers) VALUES (?1, ?2, ?3) ON "
                     "CONFLICT (repo) DO UPDATE SET etag = excluded.etag, numbers = "
                     "excluded.numbers"));
  stmt.Bind(1, repo).Bind(2, row.etag).Bind(3, nlohmann::json(row.numbers).dump());
  return DbStatus(stmt.Run());
}

Result<std::vector<HintRow>> WatchDb::Undelivered() {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt,
                          conn_->Prepare("SELECT seq, pr, line, worktree, created_at FROM "
                                         "watch_hints WHERE delivered_at IS NULL ORDER BY seq"));
  std::vector<HintRow> out;
  while (true) {
    GENTLE_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    HintRow hint;
    hint.seq = stmt.ColumnInt(0);
    hint.pr = stmt.ColumnText(1);
    hint.line = stmt.ColumnText(2);
    hint.worktree = stmt.ColumnText(3);
    hint.created_at = stmt.ColumnInt(4);
    out.push_back(std::move(hint));
  }
  return out;
}

Status WatchDb::MarkDelivered(int64_t seq, int64_t now) {
  GENTLE_ASSIGN_OR_RETURN(
      Statement stmt, conn_->Prepare("UPDATE watch_hints SET delivered_at = ?2 WHERE seq = ?1"));
  stmt.Bind(1, seq).Bind(2, now);
  return DbStatus(stmt.Run());
}

Result<std::vector<std::string>> WatchDb::LivePrs(const std::string& prefix) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt,
                          conn_->Prepare("SELECT pr FROM watch_prs WHERE dropped = 0 AND "
                                         "substr(pr, 1, length(?1)) = ?1 ORDER BY pr"));
  stmt.Bind(1, prefix);
  std::vector<std::string> out;
  while (true) {
    GENTLE_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    out.push_back(stmt.ColumnText(0));
  }
  return out;
}

}  // namespace gentle::watch
