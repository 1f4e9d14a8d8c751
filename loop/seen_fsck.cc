#include "loop/seen_fsck.h"

#include <sys/stat.h>

#include <cstdio>
#include <vector>

#include "loop/seen_ledger.h"
#include "loop/seen_schema.h"
#include "store/file_lock.h"
#include "store/index/index_schema.h"
#include "store/index/sqlite_handle.h"

namespace gentle::loop {

Result<SeenFsck> CheckSeenLedger(const std::string& common_dir) {
  using store::FindingCode;
  using store::index::SqliteConnection;
  const std::string path = SeenLedgerPath(common_dir);
  SeenFsck out;
  auto add = [&](FindingCode code, const std::string& at, const std::string& message) {
    out.findings.push_back({code, "", at, message});
  };
  auto readiness = InspectSeenLedger(common_dir);
  if (!readiness.ok()) {
    if (readiness.status().code() != Code::kCorrupted) return readiness.status();
    out.present = true;
    add(FindingCode::kLoopCorrupted, path, readiness.status().message());
    return out;
  }
  if (*readiness == SeenReadiness::kAbsent) return out;
  out.present = true;
  struct stat st;
  if (lstat(path.c_str(), &st) == 0 && (st.st_mode & 07777) != 0600) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    add(FindingCode::kLoopFileMode, path, std::string("mode ") + mode + ", expected 0600");
  }
  switch (*readiness) {
    case SeenReadiness::kSideFilesMissing:
      add(FindingCode::kLoopInterrupted, path,
          "a WAL database without its -wal or -shm; readers refuse it until the next `review "
          "seen add` or `review seen baseline` restores them");
      return out;
    case SeenReadiness::kWalInterrupted:
      add(FindingCode::kLoopInterrupted, path + "-wal",
          "a WAL header with no frame after it (a writer was stopped between the two); readers "
          "refuse it until the next `review seen add` or `review seen baseline` recovers it");
      return out;
    case SeenReadiness::kWalUnrecognised:
      add(FindingCode::kLoopCorrupted, path + "-wal", "does not start with a WAL header");
      return out;
    case SeenReadiness::kAbsent:
    case SeenReadiness::kReady:
      break;
  }
  auto conn =
      SqliteConnection::Open(path, SqliteConnection::Mode::kReadOnly, store::LockTimeoutMillis());
  if (!conn.ok()) {
    if (conn.status().code() == Code::kNotFound) {
      out.present = false;
      out.findings.clear();
      return out;
    }
    if (conn.status().code() == Code::kBusy) return LedgerStatus(conn.status());
    add(FindingCode::kLoopCorrupted, path, LedgerStatus(conn.status()).message());
    return out;
  }
  auto version = store::index::ReadSchemaVersion(**conn);
  if (!version.ok()) {
    if (version.status().code() == Code::kBusy) return LedgerStatus(version.status());
    add(FindingCode::kLoopCorrupted, path, LedgerStatus(version.status()).message());
    return out;
  }
  if (Status own = CheckSeenOwnership(**conn, *version); !own.ok()) {
    if (own.code() == Code::kBusy) return LedgerStatus(own);
    add(own.has_detail(DetailKey::kSchemaVersion) ? FindingCode::kLoopNewerSchema
                                                  : FindingCode::kLoopCorrupted,
        path, LedgerStatus(own).message());
    return out;
  }
  auto check = (*conn)->PrepareUncached("PRAGMA integrity_check");
  if (!check.ok()) {
    add(FindingCode::kLoopCorrupted, path, LedgerStatus(check.status()).message());
    return out;
  }
  auto row = check->Step();
  if (!row.ok()) {
    if (row.status().code() == Code::kBusy) return LedgerStatus(row.status());
    add(FindingCode::kLoopCorrupted, path, LedgerStatus(row.status()).message());
    return out;
  }
  if (!*row || check->ColumnText(0) != "ok") {
    add(FindingCode::kLoopCorrupted, path,
        "integrity_check: " + (*row ? check->ColumnText(0) : std::string("no answer")));
    return out;
  }
  if (*version >= 1) {
    // An older version is sound: the next writer migrates it.
    const SeenReads reads = SeenReadsFor(*version);
    std::vector<const char*> statements = {reads.entry, reads.entries, kSelectBaseline};
    if (*version == kSeenSchemaVersion) {
      statements.insert(statements.end(), {kInsertEntry, kUpsertBaseline});
    }
    for (const char* sql : statements) {
      auto stmt = (*conn)->PrepareUncached(sql);
      if (!stmt.ok()) {
        add(FindingCode::kLoopCorrupted, path,
            "tables do not match schema version " + std::to_string(*version) + ": " +
                LedgerStatus(stmt.status()).message());
        return out;
      }
    }
  }
  return out;
}

}  // namespace gentle::loop
