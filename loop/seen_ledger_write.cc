// The seen ledger's writers (loop/seen_ledger.h): Baseline and Add, in the loop's write target.
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>

#include <chrono>
#include <memory>
#include <set>
#include <thread>

#include "loop/seen_ledger.h"
#include "loop/seen_schema.h"
#include "store/clock.h"
#include "store/fault_point.h"
#include "store/file_io.h"
#include "store/file_lock.h"
#include "store/file_write.h"
#include "store/index/index_schema.h"
#include "store/index/sqlite_handle.h"
#include "store/posix_fd.h"

namespace gentle::loop {
namespace {

using store::index::SqliteConnection;
using store::index::Statement;

// Runs `body` in one BEGIN IMMEDIATE transaction: committed if it returns ok, rolled back
// otherwise (the failure stays the answer).
template <typename Body>
Status InTransaction(SqliteConnection& conn, Body body) {
  GENTLE_RETURN_IF_ERROR(conn.Exec("BEGIN IMMEDIATE"));
  Status status = body();
  if (status.ok()) status = conn.Exec("COMMIT");
  if (!status.ok() && !conn.Autocommit()) {
    if (Status rollback = conn.Exec("ROLLBACK"); !rollback.ok()) {
      status.WithDetail(DetailKey::kRollback, rollback.message());
    }
  }
  return status;
}

Status Migrate(SqliteConnection& conn) {
  GENTLE_ASSIGN_OR_RETURN(int version, store::index::ReadSchemaVersion(conn));
  GENTLE_RETURN_IF_ERROR(CheckSeenOwnership(conn, version));
  if (version == kSeenSchemaVersion) return Status::Ok();
  return InTransaction(conn, [&]() -> Status {
    // Another process may have migrated between our read and the write lock.
    GENTLE_ASSIGN_OR_RETURN(int locked, store::index::ReadSchemaVersion(conn));
    GENTLE_RETURN_IF_ERROR(CheckSeenOwnership(conn, locked));
    if (locked == kSeenSchemaVersion) return Status::Ok();
    if (locked < 1) GENTLE_RETURN_IF_ERROR(conn.Exec(kSeenMigrateTo1));
    if (locked < 2) GENTLE_RETURN_IF_ERROR(conn.Exec(kSeenMigrateTo2));
    GENTLE_RETURN_IF_ERROR(conn.Exec(kSeenMigrateTo3));
    store::FaultPoint("seen:migrated");
    return conn.Exec(("PRAGMA user_version = " + std::to_string(kSeenSchemaVersion)).c_str());
  });
}

Status AlreadyBaselined(const std::string& pr, const std::string& at) {
  return Status(Code::kConflict, "seen: " + pr + " was already baselined at " + at +
                                     " (--force adds the ids and keeps what is seen)")
      .WithDetail(DetailKey::kPr, pr)
      .WithDetail(DetailKey::kBaselinedAt, at);
}

// Judges an existing ledger read-only before any read-write open, so what a writer refuses stays
// byte-identical (a read-write connection rewrites -shm and truncates -wal at close). Shapes only
// a writer can recover (side files missing, a header-only -wal) are left to the writer.
// `baseline_pr`: also refuse a PR already baselined.
Status Preflight(const std::string& common_dir, const std::string* baseline_pr) {
  GENTLE_ASSIGN_OR_RETURN(SeenReadiness readiness, InspectSeenLedger(common_dir));
  if (readiness == SeenReadiness::kWalUnrecognised) {
    return Status(Code::kCorrupted, "seen ledger: " + SeenLedgerPath(common_dir) +
                                        "-wal does not start with a WAL header");
  }
  if (readiness != SeenReadiness::kReady) return Status::Ok();
  GENTLE_ASSIGN_OR_RETURN(SeenLedgerReader reader, SeenLedgerReader::Open(common_dir));
  if (baseline_pr != nullptr) {
    GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> at, reader.BaselinedAt(*baseline_pr));
    if (at) return AlreadyBaselined(*baseline_pr, *at);
  }
  return Status::Ok();
}

// Writers of the ledger take turns: an exclusive flock on the ledger's directory
// (<common-dir>/gentle-ai), which creates no file, held from the checks to the commit. SQLite's own
// locking alone lets concurrent first writers fail fast (creating the file, switching it to WAL,
// or upgrading a read to a write is not always retried by its busy handler). Polled every 10 ms
// up to the store's lock timeout (store/file_lock.h), then `busy`. With create=false an absent
// directory yields no lock: there is nothing to guard and nothing is created.
Result<std::unique_ptr<store::Fd>> LockLedgerDirectory(const std::string& common_dir, bool create) {
  const std::string dir = store::ParentOf(SeenLedgerPath(common_dir));
  if (create) {
    GENTLE_RETURN_IF_ERROR(LedgerStatus(store::EnsureDirectory(common_dir, dir, 0755)));
  } else if (store::KindOf(dir) == store::PathKind::kMissing) {
    return std::unique_ptr<store::Fd>();
  }
  GENTLE_RETURN_IF_ERROR(LedgerStatus(store::CheckNoSymlinks(common_dir, dir)));
  auto fd = std::make_unique<store::Fd>(
      open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (fd->get() < 0) return store::ErrnoStatus(Code::kCorrupted, "seen ledger: cannot open", dir);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(store::LockTimeoutMillis());
  while (flock(fd->get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      return store::ErrnoStatus(Code::kCorrupted, "seen ledger: cannot lock", dir);
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return Status(Code::kBusy, "seen ledger: another writer holds " + dir + "; retry");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return fd;
}

// The checks, under the writers' lock. A refusal seen before the lock may be another writer's
// work in progress (a new file, a WAL being set up), so only the answer under the lock counts; a
// command that passes the first look creates the directory it will write in.
Result<std::unique_ptr<store::Fd>> LockAndCheck(const std::string& common_dir,
                                                const std::string* baseline_pr) {
  const bool looks_fine = Preflight(common_dir, baseline_pr).ok();
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<store::Fd> lock,
                          LockLedgerDirectory(common_dir, looks_fine));
  GENTLE_RETURN_IF_ERROR(Preflight(common_dir, baseline_pr));
  return lock;
}

Result<std::unique_ptr<SqliteConnection>> OpenForWrite(const std::string& common_dir) {
  const std::string path = SeenLedgerPath(common_dir);
  const std::string dir = store::ParentOf(path);
  GENTLE_RETURN_IF_ERROR(LedgerStatus(store::EnsureDirectory(common_dir, dir, 0755)));
  GENTLE_RETURN_IF_ERROR(LedgerStatus(store::CheckNoSymlinks(common_dir, path)));
  const bool created = store::KindOf(path) == store::PathKind::kMissing;
  auto opened = SqliteConnection::Open(path, SqliteConnection::Mode::kReadWriteCreate,
                                       store::LockTimeoutMillis());
  if (!opened.ok()) return LedgerStatus(opened.status());
  std::unique_ptr<SqliteConnection> conn = std::move(opened).value();
  // The new file's directory entry is durable before anything is recorded in it.
  if (created) GENTLE_RETURN_IF_ERROR(store::SyncDirectory(dir));
  // The first statement reads the header: a file that is not SQLite fails here (corrupted).
  auto journal = conn->QueryText("PRAGMA journal_mode = WAL", "seen ledger");
  if (!journal.ok()) return LedgerStatus(journal.status());
  if (*journal != "wal") {
    return Status(Code::kInternal,
                  "seen ledger: cannot enable WAL (journal_mode is " + *journal + ")");
  }
  // Keep -wal (truncated) and -shm at close, so readers find them and create nothing.
  int persist = 1;
  sqlite3_file_control(conn->raw(), "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
  GENTLE_RETURN_IF_ERROR(LedgerStatus(conn->Exec("PRAGMA journal_size_limit = 0")));
  GENTLE_RETURN_IF_ERROR(LedgerStatus(conn->Exec("PRAGMA synchronous = FULL")));
  GENTLE_RETURN_IF_ERROR(LedgerStatus(Migrate(*conn)));
  store::FaultPoint("seen:opened");
  return conn;
}

// Inserts each id once (the first kind wins); sorts them into added / already_seen. `lineage`:
// the posted ids' lineage, NULL when empty.
Status InsertIds(SqliteConnection& conn, const std::string& pr, const std::vector<SeenId>& ids,
                 SeenKind kind, const std::string& now, const std::string& lineage,
                 SeenWrite* out) {
  std::set<SeenId> done;
  for (const SeenId& id : ids) {
    if (!done.insert(id).second) continue;
    GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(kInsertEntry));
    stmt.BindAll(pr, store::ForgeIdKindName(id.kind), id.id, SeenKindName(kind), now);
    if (!lineage.empty()) stmt.Bind(6, lineage);
    GENTLE_RETURN_IF_ERROR(stmt.Run());
    (conn.Changes() == 1 ? out->added : out->already_seen).push_back(id);
  }
  return Status::Ok();
}

}  // namespace

Result<SeenWrite> Add(const std::string& common_dir, const std::string& pr,
                      const std::vector<SeenId>& ids, SeenKind kind, const std::string& lineage) {
  if (!lineage.empty() && kind != SeenKind::kPosted) {
    return Status(Code::kUsage, "seen: a lineage is recorded only with posted ids");
  }
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<store::Fd> lock, LockAndCheck(common_dir, nullptr));
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<SqliteConnection> conn, OpenForWrite(common_dir));
  SeenWrite out;
  out.recorded_at = store::NowRfc3339();
  Status status = InTransaction(*conn, [&]() -> Status {
    GENTLE_RETURN_IF_ERROR(InsertIds(*conn, pr, ids, kind, out.recorded_at, lineage, &out));
    store::FaultPoint("seen:rows-written");
    return Status::Ok();
  });
  GENTLE_RETURN_IF_ERROR(LedgerStatus(status));
  store::FaultPoint("seen:committed");
  return out;
}

Result<SeenWrite> Baseline(const std::string& common_dir, const std::string& pr,
                           const std::vector<SeenId>& ids, bool force) {
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<store::Fd> lock,
                          LockAndCheck(common_dir, force ? nullptr : &pr));
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<SqliteConnection> conn, OpenForWrite(common_dir));
  SeenWrite out;
  out.recorded_at = store::NowRfc3339();
  Status status = InTransaction(*conn, [&]() -> Status {
    {
      GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn->Prepare(kSelectBaseline));
      stmt.BindAll(pr);
      GENTLE_ASSIGN_OR_RETURN(bool row, stmt.Step());
      if (row && !force) return AlreadyBaselined(pr, stmt.ColumnText(0));
    }
    {
      GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn->Prepare(kUpsertBaseline));
      stmt.BindAll(pr, out.recorded_at);
      GENTLE_RETURN_IF_ERROR(stmt.Run());
    }
    GENTLE_RETURN_IF_ERROR(
        InsertIds(*conn, pr, ids, SeenKind::kBaseline, out.recorded_at, "", &out));
    store::FaultPoint("seen:rows-written");
    return Status::Ok();
  });
  GENTLE_RETURN_IF_ERROR(LedgerStatus(status));
  store::FaultPoint("seen:committed");
  return out;
}

}  // namespace gentle::loop
