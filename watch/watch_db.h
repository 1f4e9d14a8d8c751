// WatchDb: the watcher's own state in `<common-dir>/gentle-ai/review-loop.sqlite`, beside the seen
// ledger (loop/seen_ledger.h) and independent of it (docs/watch.md "State"):
//   watch_prs      per PR: the last metadata read, its ETag, the comment/review ids listed, the
//                  time of its last event, when to poll next, failures, dropped (terminal);
//   watch_hosts    per forge host: not-before time (rate limit, backoff) and failures;
//   watch_lists    per repository: the open-PR list's ETag and the PR numbers it named;
//   watch_hints    hints recorded and not yet (or already) delivered, in order;
//   pr_state, pr_state_rounds   the sessions' PR state (watch/pr_state.h).
// The component's version is the one row of `watch_schema` (the seen ledger's PRAGMA
// user_version and application_id belong to the ledger and are never touched here). A file
// without the seen ledger is first made one by the ledger's own writer (an empty `seen add`), so
// the file always belongs to the ledger; a watch_schema from a newer release is `corrupted`.
//
// Connections use the ledger's settings: WAL kept at close (readers create nothing),
// synchronous=FULL, busy timeout store::LockTimeoutMillis() then `busy`. A PR's new state and the
// hint it caused are one transaction; a hint is marked delivered in a later one, only after its
// sink succeeded, so a restart re-delivers what was not delivered and nothing that was.
#ifndef GENTLE_WATCH_WATCH_DB_H_
#define GENTLE_WATCH_WATCH_DB_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/status.h"
#include "watch/pr_meta.h"

namespace gentle::store::index {
class SqliteConnection;
}

namespace gentle::watch {

inline constexpr int kWatchSchemaVersion = 1;

struct PrRow {
  std::string pr;  // FormatPrKey
  std::optional<PrMeta> meta;
  std::string etag;
  std::vector<std::string> known_ids;  // comment, review comment and review ids listed
  int64_t last_event = 0;
  int64_t next_poll = 0;
  int64_t failures = 0;
  bool dropped = false;
};

struct HostRow {
  int64_t not_before = 0;
  int64_t failures = 0;
};

struct HintRow {
  int64_t seq = 0;
  std::string pr;
  std::string line;
  std::string worktree;  // empty: no owning worktree (the on-new sink)
  int64_t created_at = 0;
  std::optional<int64_t> delivered_at;
};

struct ListRow {
  std::string etag;
  std::vector<int64_t> numbers;  // open PRs whose head is checked out here
};

class WatchDb {
 public:
  // create=false: OpenReadOnly. create=true: the file is made the ledger's first (its writer) and
  // the watcher's tables are created or migrated (watch/watch_db_write.cc).
  static Result<WatchDb> Open(const std::string& common_dir, bool create);
  // A missing file or a file without the watcher's tables is `not_found`; nothing is created
  // (watch/watch_db.cc, in the read library gentle_watch_read with the Load* readers below).
  static Result<WatchDb> OpenReadOnly(const std::string& common_dir);
  WatchDb(WatchDb&&) noexcept;
  WatchDb& operator=(WatchDb&&) noexcept;
  ~WatchDb();

  Result<std::optional<PrRow>> LoadPr(const std::string& pr);
  Status SavePr(const PrRow& row);
  // Every row of `rows`, in one transaction (a cycle's unchanged PRs: one commit, one sync).
  Status SavePrs(const std::vector<PrRow>& rows);
  // `row` and a new undelivered hint, in one transaction; the hint's seq.
  Result<int64_t> SavePrWithHint(const PrRow& row, const std::string& line,
                                 const std::string& worktree, int64_t now);
  Result<HostRow> LoadHost(const std::string& host);
  Status SaveHost(const std::string& host, const HostRow& row);
  Result<std::optional<ListRow>> LoadList(const std::string& repo);
  Status SaveList(const std::string& repo, const ListRow& row);
  Result<std::vector<HintRow>> Undelivered();
  Status MarkDelivered(int64_t seq, int64_t now);
  // PRs not dropped whose key starts with `prefix` ("github:o/r#").
  Result<std::vector<std::string>> LivePrs(const std::string& prefix);

  // `body` in one BEGIN IMMEDIATE transaction: committed when it returns ok, else rolled back.
  Status InTransaction(const std::function<Status()>& body);
  store::index::SqliteConnection& conn() { return *conn_; }

  // Shared by the reader's and the writer's halves: a SQLite status as the watcher's ("watch
  // state: ..."); the watcher's schema version (0 when its table is missing); `corrupted` for a
  // version newer than kWatchSchemaVersion.
  static Status DbStatus(const Status& status);
  static Result<int64_t> SchemaVersion(store::index::SqliteConnection& conn);
  static Status CheckVersion(int64_t version);

 private:
  explicit WatchDb(std::unique_ptr<store::index::SqliteConnection> conn);
  std::unique_ptr<store::index::SqliteConnection> conn_;
};

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_WATCH_DB_H_
