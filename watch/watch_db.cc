#include "watch/watch_db.h"

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

}  // namespace

Status WatchDb::DbStatus(const Status& status) {
  if (status.ok()) return status;
  std::string message = status.message();
  if (message.rfind("index: ", 0) == 0) message = message.substr(7);
  return Status(status.code(), "watch state: " + message);
}

// The watcher's schema version: 0 when its table is missing.
Result<int64_t> WatchDb::SchemaVersion(SqliteConnection& conn) {
  GENTLE_ASSIGN_OR_RETURN(
      Statement exists,
      conn.Prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = "
                   "'watch_schema'"));
  GENTLE_ASSIGN_OR_RETURN(std::optional<int64_t> tables, store::index::FirstInt(exists));
  if (tables.value_or(0) == 0) return int64_t{0};
  GENTLE_ASSIGN_OR_RETURN(Statement version, conn.Prepare("SELECT max(version) FROM watch_schema"));
  GENTLE_ASSIGN_OR_RETURN(std::optional<int64_t> max, store::index::FirstInt(version));
  return max.value_or(0);
}

Status WatchDb::CheckVersion(int64_t version) {
  if (version > kWatchSchemaVersion) {
    return Status(Code::kCorrupted, "watch state from a newer release: schema_version " +
                                        std::to_string(version) + ", this release knows up to " +
                                        std::to_string(kWatchSchemaVersion))
        .WithDetail(DetailKey::kSchemaVersion, std::to_string(version));
  }
  return Status::Ok();
}

WatchDb::WatchDb(std::unique_ptr<SqliteConnection> conn) : conn_(std::move(conn)) {}
WatchDb::WatchDb(WatchDb&&) noexcept = default;
WatchDb& WatchDb::operator=(WatchDb&&) noexcept = default;
WatchDb::~WatchDb() = default;

Result<WatchDb> WatchDb::OpenReadOnly(const std::string& common_dir) {
  const std::string path = loop::SeenLedgerPath(common_dir);
  GENTLE_RETURN_IF_ERROR(loop::LedgerStatus(store::CheckNoSymlinks(common_dir, path)));
  GENTLE_ASSIGN_OR_RETURN(loop::SeenReadiness readiness, loop::InspectSeenLedger(common_dir));
  if (readiness == loop::SeenReadiness::kAbsent) {
    return Status(Code::kNotFound, "watch state: no " + path);
  }
  auto opened =
      SqliteConnection::Open(path, SqliteConnection::Mode::kReadOnly, store::LockTimeoutMillis());
  if (!opened.ok()) return DbStatus(opened.status());
  std::unique_ptr<SqliteConnection> conn = std::move(opened).value();
  GENTLE_ASSIGN_OR_RETURN(int64_t version, SchemaVersion(*conn));
  GENTLE_RETURN_IF_ERROR(CheckVersion(version));
  if (version == 0) return Status(Code::kNotFound, "watch state: nothing recorded in " + path);
  return WatchDb(std::move(conn));
}

Result<std::optional<PrRow>> WatchDb::LoadPr(const std::string& pr) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt,
                          conn_->Prepare("SELECT meta, etag, known_ids, last_event, next_poll, "
                                         "failures, dropped FROM watch_prs WHERE pr = ?1"));
  stmt.BindAll(pr);
  GENTLE_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row) return std::optional<PrRow>();
  PrRow out;
  out.pr = pr;
  std::string meta, known_ids;
  stmt.Read(meta, out.etag, known_ids, out.last_event, out.next_poll, out.failures, out.dropped);
  if (!meta.empty()) {
    GENTLE_ASSIGN_OR_RETURN(PrMeta decoded, DecodePrMeta(meta));
    out.meta = std::move(decoded);
  }
  GENTLE_ASSIGN_OR_RETURN(out.known_ids, DecodeIds(known_ids));
  return std::optional<PrRow>(std::move(out));
}

Result<HostRow> WatchDb::LoadHost(const std::string& host) {
  GENTLE_ASSIGN_OR_RETURN(
      Statement stmt,
      conn_->Prepare("SELECT not_before, failures FROM watch_hosts WHERE host = ?1"));
  stmt.BindAll(host);
  GENTLE_ASSIGN_OR_RETURN(bool row, stmt.Step());
  HostRow out;
  if (row) stmt.Read(out.not_before, out.failures);
  return out;
}

Result<std::optional<ListRow>> WatchDb::LoadList(const std::string& repo) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt,
                          conn_->Prepare("SELECT etag, numbers FROM watch_lists WHERE repo = ?1"));
  stmt.BindAll(repo);
  GENTLE_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row) return std::optional<ListRow>();
  ListRow out;
  std::string listed;
  stmt.Read(out.etag, listed);
  nlohmann::json numbers;
  store::StrictJsonRefusal why;
  if (!store::ParseStrictJson(listed, 2, &numbers, &why) || !numbers.is_array()) {
    return Status(Code::kCorrupted, "watch state: a PR list is not a JSON array");
  }
  for (const auto& n : numbers) {
    if (!n.is_number_integer()) return Status(Code::kCorrupted, "watch state: a PR number");
    out.numbers.push_back(n.get<int64_t>());
  }
  return std::optional<ListRow>(std::move(out));
}

Result<std::vector<HintRow>> WatchDb::Undelivered() {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt,
                          conn_->Prepare("SELECT seq, pr, line, worktree, created_at FROM "
                                         "watch_hints WHERE delivered_at IS NULL ORDER BY seq"));
  std::vector<HintRow> out;
  GENTLE_RETURN_IF_ERROR(store::index::ForEachRow(stmt, [&](const Statement& row) {
    HintRow& hint = out.emplace_back();
    row.Read(hint.seq, hint.pr, hint.line, hint.worktree, hint.created_at);
    return true;
  }));
  return out;
}

Result<std::vector<std::string>> WatchDb::LivePrs(const std::string& prefix) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt,
                          conn_->Prepare("SELECT pr FROM watch_prs WHERE dropped = 0 AND "
                                         "substr(pr, 1, length(?1)) = ?1 ORDER BY pr"));
  stmt.BindAll(prefix);
  std::vector<std::string> out;
  GENTLE_RETURN_IF_ERROR(store::index::ForEachRow(stmt, [&](const Statement& row) {
    row.Read(out.emplace_back());
    return true;
  }));
  return out;
}

}  // namespace gentle::watch
