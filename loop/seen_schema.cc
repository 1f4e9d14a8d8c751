#include "loop/seen_schema.h"

#include "loop/seen_ledger.h"
#include "store/file_io.h"
#include "store/index/database_files.h"

namespace gentle::loop {
SeenReads SeenReadsFor(int version) {
  if (version == 1) {
    return {
        "SELECT kind, recorded_at FROM seen WHERE pr = ?1 AND ?2 = 'comment' AND "
        "comment_id = ?3",
        "SELECT 'comment', comment_id, kind, recorded_at FROM seen WHERE pr = ?1 ORDER BY seq"};
  }
  return {"SELECT kind, recorded_at FROM seen WHERE pr = ?1 AND id_kind = ?2 AND id = ?3",
          "SELECT id_kind, id, kind, recorded_at FROM seen WHERE pr = ?1 ORDER BY seq"};
}

std::string SeenLedgerPath(const std::string& common_dir) {
  return common_dir + "/gentle-ai/review-loop.sqlite";
}

Status LedgerStatus(const Status& status) {
  if (status.ok()) return status;
  std::string message = status.message();
  if (message.rfind("index: ", 0) == 0) message = "seen ledger: " + message.substr(7);
  Status out(status.code(), std::move(message));
  out.WithDetailsOf(status);
  return out;
}

Status CheckSeenOwnership(store::index::SqliteConnection& conn, int version) {
  if (version > kSeenSchemaVersion) {
    return Status(Code::kCorrupted, "seen ledger from a newer release: schema_version " +
                                        std::to_string(version) + ", this release knows up to " +
                                        std::to_string(kSeenSchemaVersion))
        .WithDetail(DetailKey::kSchemaVersion, std::to_string(version));
  }
  if (version < 0) return Status(Code::kCorrupted, "seen ledger: negative schema_version");
  if (version == 0) {
    GENTLE_ASSIGN_OR_RETURN(int64_t objects,
                            conn.QueryInt("SELECT count(*) FROM sqlite_schema", "seen ledger"));
    if (objects != 0) {
      return Status(Code::kCorrupted, "seen ledger: a SQLite database that is not a seen ledger");
    }
    return Status::Ok();
  }
  GENTLE_ASSIGN_OR_RETURN(int64_t app_id, conn.QueryInt("PRAGMA application_id", "seen ledger"));
  if (app_id != kSeenApplicationId) {
    return Status(Code::kCorrupted, "seen ledger: a SQLite database that is not a seen ledger");
  }
  return Status::Ok();
}

Result<SeenReadiness> InspectSeenLedger(const std::string& common_dir) {
  const std::string path = SeenLedgerPath(common_dir);
  GENTLE_RETURN_IF_ERROR(LedgerStatus(store::CheckNoSymlinks(common_dir, path)));
  GENTLE_RETURN_IF_ERROR(LedgerStatus(store::index::CheckDatabaseFileKinds(path)));
  if (store::KindOf(path) == store::PathKind::kMissing) return SeenReadiness::kAbsent;
  GENTLE_ASSIGN_OR_RETURN(store::index::WalState wal, store::index::InspectWal(path));
  if (wal == store::index::WalState::kAbsent ||
      store::KindOf(path + "-shm") != store::PathKind::kFile) {
    const std::string header = store::FileHeader(path, 100);
    const std::string_view magic("SQLite format 3\0", 16);
    const bool wal_mode =
        header.size() == 100 && header.compare(0, 16, magic) == 0 && header[18] == 2;
    return wal_mode ? SeenReadiness::kSideFilesMissing : SeenReadiness::kReady;
  }
  if (wal == store::index::WalState::kInterrupted) return SeenReadiness::kWalInterrupted;
  if (wal == store::index::WalState::kUnrecognised) return SeenReadiness::kWalUnrecognised;
  return SeenReadiness::kReady;
}

}  // namespace gentle::loop
