// The seen ledger's readers (loop/seen_ledger.h), in the loop's read target.
#include "loop/seen_ledger.h"

#include <set>

#include "loop/seen_schema.h"
#include "store/file_lock.h"
#include "store/index/index_schema.h"
#include "store/index/sqlite_handle.h"
#include "store/name_table.h"
#include "store/time_order.h"

namespace gentle::loop {
namespace {

using store::index::SqliteConnection;
using store::index::Statement;

Status Unreadable(const std::string& path, const std::string& why) {
  return Status(Code::kCorrupted, "seen ledger: " + path + " " + why +
                                      "; the next `review seen add` or `review seen baseline` "
                                      "recovers it")
      .WithDetail(DetailKey::kPath, path);
}

constexpr store::NameTable kSeenKindNames = store::MakeNameTable<SeenKind>({
    {SeenKind::kBaseline, "baseline"},
    {SeenKind::kHandled, "handled"},
    {SeenKind::kPosted, "posted"},
});

// A row's seen kind; the ledger's writers write only SeenKindName's.
Result<SeenKind> KindOfRow(const std::string& text) {
  if (std::optional<SeenKind> kind = ParseSeenKind(text)) return *kind;
  return Status(Code::kCorrupted, "seen ledger: a row with an unknown kind");
}

}  // namespace

std::string_view SeenKindName(SeenKind kind) { return kSeenKindNames.Name(kind); }

std::optional<SeenKind> ParseSeenKind(std::string_view name) { return kSeenKindNames.Parse(name); }

SeenLedgerReader::SeenLedgerReader(std::unique_ptr<SqliteConnection> conn, int version)
    : conn_(std::move(conn)), version_(version) {}
SeenLedgerReader::SeenLedgerReader(SeenLedgerReader&&) noexcept = default;
SeenLedgerReader& SeenLedgerReader::operator=(SeenLedgerReader&&) noexcept = default;
SeenLedgerReader::~SeenLedgerReader() = default;

Result<SeenLedgerReader> SeenLedgerReader::Open(const std::string& common_dir) {
  const std::string path = SeenLedgerPath(common_dir);
  GENTLE_ASSIGN_OR_RETURN(SeenReadiness readiness, InspectSeenLedger(common_dir));
  switch (readiness) {
    case SeenReadiness::kAbsent:
      return SeenLedgerReader(nullptr, 0);
    case SeenReadiness::kSideFilesMissing:
      return Unreadable(path, "is a WAL database without its -wal or -shm");
    case SeenReadiness::kWalInterrupted:
      return Unreadable(path + "-wal", "holds a WAL header and no frame (a writer was stopped)");
    case SeenReadiness::kWalUnrecognised:
      return Status(Code::kCorrupted,
                    "seen ledger: " + path + "-wal does not start with a WAL header")
          .WithDetail(DetailKey::kPath, path + "-wal");
    case SeenReadiness::kReady:
      break;
  }
  auto conn =
      SqliteConnection::Open(path, SqliteConnection::Mode::kReadOnly, store::LockTimeoutMillis());
  if (!conn.ok()) {
    // Removed between the check and the open: nothing seen.
    if (conn.status().code() == Code::kNotFound) return SeenLedgerReader(nullptr, 0);
    return LedgerStatus(conn.status());
  }
  auto version = store::index::ReadSchemaVersion(**conn);
  if (!version.ok()) return LedgerStatus(version.status());
  GENTLE_RETURN_IF_ERROR(LedgerStatus(CheckSeenOwnership(**conn, *version)));
  // An empty file no writer migrated yet (a writer stopped right after creating it).
  if (*version == 0) return SeenLedgerReader(nullptr, 0);
  // Compiling the statements proves the tables match the version.
  const SeenReads reads = SeenReadsFor(*version);
  for (const char* sql : {reads.entry, reads.entries, kSelectBaseline}) {
    auto stmt = (*conn)->Prepare(sql);
    if (!stmt.ok()) {
      Status st = LedgerStatus(stmt.status());
      if (st.code() == Code::kBusy) return st;
      return Status(Code::kCorrupted, "seen ledger: tables do not match schema version " +
                                          std::to_string(*version) + ": " + st.message());
    }
  }
  return SeenLedgerReader(std::move(conn).value(), *version);
}

Result<std::optional<SeenEntry>> SeenLedgerReader::Find(const std::string& pr, const SeenId& id) {
  if (!conn_) return std::optional<SeenEntry>();
  auto stmt = conn_->Prepare(SeenReadsFor(version_).entry);
  if (!stmt.ok()) return LedgerStatus(stmt.status());
  stmt->BindAll(pr, store::ForgeIdKindName(id.kind), id.id);
  auto row = stmt->Step();
  if (!row.ok()) return LedgerStatus(row.status());
  if (!*row) return std::optional<SeenEntry>();
  std::string seen, recorded_at;
  stmt->Read(seen, recorded_at);
  GENTLE_ASSIGN_OR_RETURN(SeenKind kind, KindOfRow(seen));
  return std::optional<SeenEntry>(SeenEntry{id, kind, recorded_at});
}

Result<SeenPr> SeenLedgerReader::List(const std::string& pr) {
  SeenPr out;
  if (!conn_) return out;
  // One read transaction: the baseline and the rows are one snapshot.
  GENTLE_RETURN_IF_ERROR(LedgerStatus(conn_->Exec("BEGIN")));
  Status status = [&]() -> Status {
    {
      GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn_->Prepare(kSelectBaseline));
      stmt.BindAll(pr);
      GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> at, store::index::FirstText(stmt));
      if (at) out.baselined_at = *at;
    }
    GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn_->Prepare(SeenReadsFor(version_).entries));
    stmt.BindAll(pr);
    return store::index::ForEachRow(stmt, [&](const Statement& row) -> Result<bool> {
      std::string id_kind, id, seen, recorded_at;
      row.Read(id_kind, id, seen, recorded_at);
      // The table's CHECK constraints hold the kind to comment | review.
      const auto kind = store::ParseForgeIdKind(id_kind);
      if (!kind) return Status(Code::kCorrupted, "seen ledger: a row with an unknown id kind");
      GENTLE_ASSIGN_OR_RETURN(SeenKind seen_kind, KindOfRow(seen));
      out.entries.push_back({SeenId{*kind, id}, seen_kind, recorded_at});
      return true;
    });
  }();
  Status end = conn_->Exec("COMMIT");
  GENTLE_RETURN_IF_ERROR(LedgerStatus(status));
  GENTLE_RETURN_IF_ERROR(LedgerStatus(end));
  return out;
}

Result<std::optional<std::string>> SeenLedgerReader::BaselinedAt(const std::string& pr) {
  if (!conn_) return std::optional<std::string>();
  auto stmt = conn_->Prepare(kSelectBaseline);
  if (!stmt.ok()) return LedgerStatus(stmt.status());
  stmt->BindAll(pr);
  auto at = store::index::FirstText(*stmt);
  if (!at.ok()) return LedgerStatus(at.status());
  return *at;
}

Result<std::optional<std::string>> SeenLedgerReader::NewestPostedAt() {
  if (!conn_) return std::optional<std::string>();
  // `seq` and `kind` are the same in both schema versions.
  auto stmt = conn_->Prepare(
      "SELECT recorded_at FROM seen WHERE kind = 'posted' ORDER BY seq DESC LIMIT 1");
  if (!stmt.ok()) return LedgerStatus(stmt.status());
  auto row = stmt->Step();
  if (!row.ok()) return LedgerStatus(row.status());
  if (!*row) return std::optional<std::string>();
  return std::optional<std::string>(stmt->ColumnText(0));
}

Result<bool> SeenLedgerReader::PostedSince(const std::string& lineage, const std::string& revision,
                                           std::string_view since) {
  if (!conn_) return false;
  // Every other lineage's posted ids, keyed "<pr>\n<id>"; and this verdict's own intent.
  std::set<std::string> others;
  GENTLE_ASSIGN_OR_RETURN(
      Statement table,
      conn_->Prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'post_intents'"));
  GENTLE_ASSIGN_OR_RETURN(bool intents, table.Step());
  if (intents) {
    GENTLE_ASSIGN_OR_RETURN(
        Statement own,
        conn_->Prepare("SELECT state FROM post_intents WHERE lineage = ?1 AND revision = ?2"));
    own.BindAll(lineage, revision);
    bool open = false;
    for (;;) {
      GENTLE_ASSIGN_OR_RETURN(bool row, own.Step());
      if (!row) break;
      if (own.ColumnText(0) == "posted") return true;
      open = true;
    }
    if (open) return false;
    GENTLE_ASSIGN_OR_RETURN(Statement other,
                            conn_->Prepare("SELECT pr, posted_id FROM post_intents WHERE state = "
                                           "'posted' AND lineage != ?1"));
    other.BindAll(lineage);
    for (;;) {
      GENTLE_ASSIGN_OR_RETURN(bool row, other.Step());
      if (!row) break;
      others.insert(other.ColumnText(0) + "\n" + other.ColumnText(1));
    }
  }
  // The posted ids, newest first (rows are recorded in time order), down to `since`, with the
  // lineage each answers (version 3; NULL: not named).
  const char* sql = version_ == 1 ? "SELECT pr, 'comment', comment_id, recorded_at, NULL FROM seen "
                                    "WHERE kind = 'posted' ORDER BY seq DESC"
                    : version_ == 2
                        ? "SELECT pr, id_kind, id, recorded_at, NULL FROM seen WHERE kind = "
                          "'posted' ORDER BY seq DESC"
                        : "SELECT pr, id_kind, id, recorded_at, lineage FROM seen WHERE kind = "
                          "'posted' ORDER BY seq DESC";
  GENTLE_ASSIGN_OR_RETURN(Statement posted, conn_->Prepare(sql));
  const std::string floor = store::TimeOrderKey(since);
  for (;;) {
    GENTLE_ASSIGN_OR_RETURN(bool row, posted.Step());
    if (!row) return false;
    if (store::TimeOrderKey(posted.ColumnText(3)) < floor) return false;
    // A posted id that names its lineage answers that lineage's verdict only (NULL reads as "").
    if (const std::string named = posted.ColumnText(4); !named.empty()) {
      if (named == lineage) return true;
      continue;
    }
    const std::string id =
        posted.ColumnText(1) == "review" ? "review:" + posted.ColumnText(2) : posted.ColumnText(2);
    if (others.count(posted.ColumnText(0) + "\n" + id) == 0) return true;
  }
}

Result<std::vector<SeenId>> SeenLedgerReader::Unseen(const std::string& pr,
                                                     const std::vector<SeenId>& ids) {
  std::vector<SeenId> out;
  if (!conn_) return ids;
  GENTLE_RETURN_IF_ERROR(LedgerStatus(conn_->Exec("BEGIN")));
  Status status = [&]() -> Status {
    for (const SeenId& id : ids) {
      GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn_->Prepare(SeenReadsFor(version_).entry));
      stmt.BindAll(pr, store::ForgeIdKindName(id.kind), id.id);
      GENTLE_ASSIGN_OR_RETURN(bool row, stmt.Step());
      if (!row) out.push_back(id);
    }
    return Status::Ok();
  }();
  Status end = conn_->Exec("COMMIT");
  GENTLE_RETURN_IF_ERROR(LedgerStatus(status));
  GENTLE_RETURN_IF_ERROR(LedgerStatus(end));
  return out;
}

}  // namespace gentle::loop
