#include "watch/post_intents.h"

#include "loop/seen_ledger.h"
#include "store/clock.h"
#include "store/fault_point.h"
#include "store/file_io.h"
#include "store/file_write.h"
#include "store/index/sqlite_handle.h"

namespace gentle::watch {
namespace {

using store::index::SqliteConnection;
using store::index::Statement;

constexpr const char* kPostMigrateTo1 = R"sql(
CREATE TABLE post_schema (
  version INTEGER NOT NULL
) STRICT;
CREATE TABLE post_intents (
  seq        INTEGER PRIMARY KEY,
  pr         TEXT NOT NULL CHECK (length(pr) BETWEEN 1 AND 256),
  lineage    TEXT NOT NULL,
  round      INTEGER NOT NULL CHECK (round >= 1),
  role       TEXT NOT NULL,
  revision   TEXT NOT NULL,
  nonce      TEXT NOT NULL UNIQUE CHECK (length(nonce) = 32),
  post_as    TEXT NOT NULL CHECK (post_as IN ('review', 'comment')),
  endpoint   TEXT NOT NULL,
  body       TEXT NOT NULL,
  event      TEXT NOT NULL,
  attempts   INTEGER NOT NULL CHECK (attempts >= 0),
  state      TEXT NOT NULL CHECK (state IN ('open', 'posted')),
  posted_id  TEXT NOT NULL,
  created_at TEXT NOT NULL,
  posted_at  TEXT NOT NULL,
  UNIQUE (pr, lineage, round, role, revision)
) STRICT;
CREATE INDEX post_intents_open ON post_intents (pr, seq) WHERE state = 'open';
INSERT INTO post_schema (version) VALUES (1);
)sql";

constexpr const char* kColumns =
    "seq, pr, lineage, round, role, revision, nonce, post_as, endpoint, body, event, attempts, "
    "state, posted_id, created_at, posted_at";

Status PostStatus(const Status& status) {
  if (status.ok()) return status;
  std::string message = status.message();
  for (const char* prefix : {"index: ", "watch state: "}) {
    if (message.rfind(prefix, 0) == 0) message = message.substr(std::string_view(prefix).size());
  }
  return Status(status.code(), "post intents: " + message);
}

Result<bool> HasTable(SqliteConnection& conn) {
  GENTLE_ASSIGN_OR_RETURN(
      Statement stmt,
      conn.Prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = "
                   "'post_schema'"));
  GENTLE_ASSIGN_OR_RETURN(std::optional<int64_t> count, store::index::FirstInt(stmt));
  return count.value_or(0) != 0;
}

// The component's version: 0 when its table is missing; a newer one is `corrupted`.
Result<int64_t> PostVersion(SqliteConnection& conn) {
  GENTLE_ASSIGN_OR_RETURN(bool exists, HasTable(conn));
  if (!exists) return int64_t{0};
  GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare("SELECT max(version) FROM post_schema"));
  GENTLE_ASSIGN_OR_RETURN(std::optional<int64_t> max, store::index::FirstInt(stmt));
  const int64_t version = max.value_or(0);
  if (version > kPostSchemaVersion) {
    return Status(Code::kCorrupted, "post intents from a newer release: schema_version " +
                                        std::to_string(version) + ", this release knows up to " +
                                        std::to_string(kPostSchemaVersion))
        .WithDetail(DetailKey::kSchemaVersion, std::to_string(version));
  }
  return version;
}

PostIntent RowOf(const Statement& stmt) {
  PostIntent out;
  std::string as, state, role, event;
  stmt.Read(out.seq, out.pr, out.lineage, out.round, role, out.revision, out.nonce, as,
            out.endpoint, out.text, event, out.attempts, state, out.posted_id, out.created_at,
            out.posted_at);
  // The column's CHECK holds it to the two names; any other text reads as a comment, as the
  // poster has always taken it.
  out.as = ParsePostAs(as).value_or(PostAs::kComment);
  out.role = store::RoleWord::FromText(std::move(role));
  out.event = ReviewEventWord::FromText(std::move(event));
  out.open = state == "open";
  return out;
}

// `sql` with ?1 the seq, then `texts` as ?2, ?3...
Status RunOne(SqliteConnection& conn, const std::string& sql, int64_t seq,
              const std::vector<std::string>& texts = {}) {
  GENTLE_ASSIGN_OR_RETURN(Statement stmt, conn.Prepare(sql));
  stmt.BindAll(seq);
  for (size_t i = 0; i < texts.size(); ++i) stmt.Bind(static_cast<int>(i) + 2, texts[i]);
  return PostStatus(stmt.Run());
}

}  // namespace

Result<store::FileLock> LockPosts(const std::string& common_dir) {
  const std::string dir = store::ParentOf(loop::SeenLedgerPath(common_dir));
  GENTLE_RETURN_IF_ERROR(PostStatus(store::EnsureDirectory(common_dir, dir, 0755)));
  GENTLE_RETURN_IF_ERROR(PostStatus(store::CheckNoSymlinks(common_dir, dir)));
  return store::FileLock::Acquire(dir + "/review-post.lock", store::LockMode::kExclusive, true);
}

Result<PostIntents> PostIntents::Open(const std::string& common_dir) {
  // WatchDb::Open passes the file through the ledger's own writer first (watch/watch_db.cc), so
  // the tables below are never added to a file the ledger has not made its own.
  auto db = WatchDb::Open(common_dir, /*create=*/true);
  if (!db.ok()) return PostStatus(db.status());
  Status migrated = db->InTransaction([&]() -> Status {
    GENTLE_ASSIGN_OR_RETURN(int64_t version, PostVersion(db->conn()));
    if (version == 0) return db->conn().Exec(kPostMigrateTo1);
    return Status::Ok();
  });
  GENTLE_RETURN_IF_ERROR(PostStatus(migrated));
  return PostIntents(std::move(db).value());
}

Result<std::optional<PostIntent>> PostIntents::Find(const std::string& pr,
                                                    const std::string& lineage, int64_t round,
                                                    store::ReviewerRole role,
                                                    const std::string& revision) {
  GENTLE_ASSIGN_OR_RETURN(
      Statement stmt,
      db_->conn().Prepare(std::string("SELECT ") + kColumns +
                          " FROM post_intents WHERE pr = ?1 AND lineage = ?2 AND round = ?3 AND "
                          "role = ?4 AND revision = ?5"));
  stmt.BindAll(pr, lineage, round, store::ReviewerRoleName(role), revision);
  auto row = stmt.Step();
  if (!row.ok()) return PostStatus(row.status());
  if (!*row) return std::optional<PostIntent>();
  return std::optional<PostIntent>(RowOf(stmt));
}

Result<std::vector<PostIntent>> PostIntents::Unanswered(const std::string& pr) {
  GENTLE_ASSIGN_OR_RETURN(
      Statement stmt,
      db_->conn().Prepare(std::string("SELECT ") + kColumns +
                          " FROM post_intents WHERE state = 'open' AND (?1 = '' OR pr = ?1) "
                          "ORDER BY seq"));
  stmt.BindAll(pr);
  std::vector<PostIntent> out;
  GENTLE_RETURN_IF_ERROR(PostStatus(store::index::ForEachRow(stmt, [&](const Statement& row) {
    out.push_back(RowOf(row));
    return Result<bool>(true);
  })));
  return out;
}

Status PostIntents::Record(PostIntent* intent) {
  intent->created_at = store::NowRfc3339();
  Status status = db_->InTransaction([&]() -> Status {
    GENTLE_ASSIGN_OR_RETURN(
        Statement stmt,
        db_->conn().Prepare(
            "INSERT INTO post_intents (pr, lineage, round, role, revision, nonce, post_as, "
            "endpoint, body, event, attempts, state, posted_id, created_at, posted_at) VALUES "
            "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 'open', '', ?12, '')"));
    stmt.BindAll(intent->pr, intent->lineage, intent->round, intent->role.text(), intent->revision,
                 intent->nonce, PostAsName(intent->as), intent->endpoint, intent->text,
                 intent->event.text(), intent->attempts, intent->created_at);
    GENTLE_RETURN_IF_ERROR(stmt.Run());
    GENTLE_ASSIGN_OR_RETURN(Statement seq, db_->conn().Prepare("SELECT last_insert_rowid()"));
    GENTLE_ASSIGN_OR_RETURN(std::optional<int64_t> rowid, store::index::FirstInt(seq));
    if (rowid) intent->seq = *rowid;
    return Status::Ok();
  });
  GENTLE_RETURN_IF_ERROR(PostStatus(status));
  store::FaultPoint("post:intent-recorded");
  return Status::Ok();
}

Status PostIntents::SetAttempts(int64_t seq, int64_t attempts) {
  return RunOne(db_->conn(),
                "UPDATE post_intents SET attempts = CAST(?2 AS INTEGER) WHERE seq = ?1", seq,
                {std::to_string(attempts)});
}

Status PostIntents::Close(int64_t seq, const std::string& posted_id,
                          const std::string& recorded_at) {
  return RunOne(db_->conn(),
                "UPDATE post_intents SET state = 'posted', posted_id = ?2, posted_at = ?3 WHERE "
                "seq = ?1",
                seq, {posted_id, recorded_at});
}

Status PostIntents::Remove(int64_t seq) {
  return RunOne(db_->conn(), "DELETE FROM post_intents WHERE seq = ?1 AND state = 'open'", seq);
}

Result<bool> HasUnansweredPosts(const std::string& common_dir, const std::string& pr) {
  auto db = WatchDb::Open(common_dir, /*create=*/false);
  if (!db.ok()) {
    if (db.status().code() == Code::kNotFound) return false;
    return PostStatus(db.status());
  }
  GENTLE_ASSIGN_OR_RETURN(int64_t version, PostVersion(db->conn()));
  if (version == 0) return false;
  GENTLE_ASSIGN_OR_RETURN(
      Statement stmt,
      db->conn().Prepare(
          "SELECT count(*) FROM post_intents WHERE state = 'open' AND (?1 = '' OR pr = ?1)"));
  stmt.BindAll(pr);
  GENTLE_ASSIGN_OR_RETURN(std::optional<int64_t> open, store::index::FirstInt(stmt));
  return open.value_or(0) > 0;
}

}  // namespace gentle::watch
