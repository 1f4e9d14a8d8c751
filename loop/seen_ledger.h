// The seen ledger (docs/loop.md, "review seen"): per pull
// request, the forge comment and review ids a session has handled or posted, so that its own
// replies and what it already dealt with never come back as new feedback. An id is keyed with its
// kind (loop/comment_id.h: GitHub's review bodies have their own id space). Deduplicated by id,
// never by author (there is no author column at all).
//
// Kept in `<common-dir>/gentle-ai/review-loop.sqlite`: primary data, not an index (nothing rebuilds
// it; `review store reset` leaves it alone). Mode 0600, WAL, synchronous=FULL, PERSIST_WAL (readers
// find -wal and -shm and create nothing), busy timeout store::LockTimeoutMillis() then `busy`.
// Every path component below the common dir is checked not to be a symlink; the file and its
// -wal, -shm and -journal must be regular files (or missing); a file that is not ours or is from
// a newer schema is `corrupted` and never touched.
//
// Readers (SeenLedgerReader, in the loop's read target) open read-only and never create or write
// anything: a missing file (or an empty, never-migrated one) means nothing is seen. A WAL database
// whose -wal or -shm is missing, or whose -wal holds a header and no frame (a writer killed between
// the two), cannot be read without writing: readers refuse it with `corrupted` naming the writer
// that recovers it (any `seen add` or `seen baseline`).
//
// Schema versions: 1 keyed ids without their kind; 2 keys (pr, id_kind, id). Readers read a
// version-1 file as it is (every id a comment); the first writer migrates it to 2 in one
// transaction, every id, its seq, kind and time kept.
//
// Writers (Baseline, Add: loop/seen_ledger_write.cc, the write target) first judge an existing
// file as a reader does (read-only), so a file that is not ours, a newer schema, a -wal SQLite
// does not read, or a second baseline is refused with every byte unchanged; then they create the
// directory and file when needed and make each call one BEGIN IMMEDIATE transaction (the baseline
// check repeated inside it), so concurrent processes serialise on SQLite's write lock and each call
// lands whole or not at all. Fault points, in order:
// `seen:opened` (file open, schema current), `seen:rows-written` (rows inserted, not committed),
// `seen:committed` (after COMMIT).
#ifndef GENTLE_LOOP_SEEN_LEDGER_H_
#define GENTLE_LOOP_SEEN_LEDGER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loop/comment_id.h"
#include "store/status.h"

namespace gentle::store::index {
class SqliteConnection;
}

namespace gentle::loop {

inline constexpr std::string_view kSeenSchema = "gentle-ai.review-seen/v1";
// PRAGMA user_version this release writes and reads.
inline constexpr int kSeenSchemaVersion = 3;
// PRAGMA application_id of a seen ledger ("GALP").
inline constexpr int32_t kSeenApplicationId = 0x47414c50;

std::string SeenLedgerPath(const std::string& common_dir);

// How an id entered the ledger. An id keeps the kind it was first recorded with.
enum class SeenKind { kBaseline, kHandled, kPosted };
std::string_view SeenKindName(SeenKind kind);  // "baseline" | "handled" | "posted"
// nullopt for any other text.
std::optional<SeenKind> ParseSeenKind(std::string_view name);

struct SeenEntry {
  SeenId id;
  SeenKind kind = SeenKind::kHandled;  // a ledger row of any other kind is `corrupted`
  std::string recorded_at;
};

struct SeenPr {
  std::optional<std::string> baselined_at;  // when `baseline` last ran for the PR
  std::vector<SeenEntry> entries;           // insertion order
};

// A read-only view of the ledger. `pr` arguments are FormatPrKey() text, ids checked ones.
class SeenLedgerReader {
 public:
  static Result<SeenLedgerReader> Open(const std::string& common_dir);
  SeenLedgerReader(SeenLedgerReader&&) noexcept;
  SeenLedgerReader& operator=(SeenLedgerReader&&) noexcept;
  ~SeenLedgerReader();

  Result<std::optional<SeenEntry>> Find(const std::string& pr, const SeenId& id);
  Result<SeenPr> List(const std::string& pr);
  // When `baseline` last ran for `pr`, or nothing.
  Result<std::optional<std::string>> BaselinedAt(const std::string& pr);
  // The ids of `ids` not seen for `pr`, in their order.
  Result<std::vector<SeenId>> Unseen(const std::string& pr, const std::vector<SeenId>& ids);
  // When the newest `posted` id of any PR was recorded (rows are recorded in time order, so the
  // last one inserted), or nothing when no id was ever recorded as posted.
  Result<std::optional<std::string>> NewestPostedAt();
  // Whether the verdict recorded in `lineage`'s history at `revision`, at time `since` (RFC
  // 3339), has been posted (docs/loop.md, "Posting is a step"): a `review post` of that lineage
  // and revision closed its intent (table `post_intents`, watch/post_intents.h; read only when
  // it exists), or, when no intent of it is open, a `posted` id was recorded at or after `since`
  // for this lineage (`seen add --posted --lineage`), or for no named lineage and not by another
  // lineage's `review post` (a harness's own post recorded without --lineage).
  // An open intent of that lineage and revision is a post whose outcome is unknown: not posted.
  Result<bool> PostedSince(const std::string& lineage, const std::string& revision,
                           std::string_view since);

 private:
  SeenLedgerReader(std::unique_ptr<store::index::SqliteConnection> conn, int version);
  std::unique_ptr<store::index::SqliteConnection> conn_;  // null: no ledger, nothing seen
  int version_ = 0;  // the file's schema version (1 is read as it is; writers migrate)
};

// What one write did: ids newly recorded and ids that were already there, each in argument order.
struct SeenWrite {
  std::vector<SeenId> added;
  std::vector<SeenId> already_seen;
  std::string recorded_at;
};

// Records `ids` for `pr` with `kind` (kHandled or kPosted). Idempotent per id (an id keeps the
// kind, time and lineage it was first recorded with). `lineage`, with kPosted only: the lineage
// whose verdict the posted ids answer (empty: not known, as in ledgers before version 3).
Result<SeenWrite> Add(const std::string& common_dir, const std::string& pr,
                      const std::vector<SeenId>& ids, SeenKind kind,
                      const std::string& lineage = "");
// Records the PR's existing `ids` (kind baseline) and marks the PR baselined, in one transaction.
// A PR already baselined is `conflict` (nothing written) unless `force`: then the ids are added
// (nothing seen is ever forgotten) and baselined_at moves to now.
Result<SeenWrite> Baseline(const std::string& common_dir, const std::string& pr,
                           const std::vector<SeenId>& ids, bool force);

}  // namespace gentle::loop

#endif  // GENTLE_LOOP_SEEN_LEDGER_H_
