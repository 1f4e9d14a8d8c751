// PostIntents: the posts `review post` is making or made, in `<common-dir>/gentle-ai/
// review-loop.sqlite` beside the seen ledger and the watcher's tables (docs/loop.md "review post").
//
// Before a comment is sent, its intent is committed: the PR, the lineage, round, role and
// revision of the verdict, the marker's nonce, how it is posted (review or comment), where (the
// gh host or the Gitea base URL), the exact text and the review event, and how many times it
// was sent. After the forge answered with the new id, the id is recorded as posted in the seen
// ledger (loop/seen_ledger.h), then the intent is closed with that id. So an open intent is a
// post whose outcome is unknown (the process died, or the forge could not be reached), and a
// closed one answers a repeated post of the same verdict (`created: false`).
//
// Its own schema component: table `post_schema` holds its version (1), `post_intents` the rows;
// the ledger's user_version and application_id and the watcher's `watch_schema` are never
// touched. The connection is the watcher's (watch/watch_db.h: the file is made a seen ledger
// first, WAL kept, synchronous=FULL). A newer post_schema is `corrupted`.
//
// One post at a time per clone: every `review post`, and every recovery, holds an exclusive
// flock on `<common-dir>/gentle-ai/review-post.lock` (store/file_lock.h; `busy` after the lock
// timeout) from reading the intents to closing them, so two processes never both find an intent
// unanswered and send it twice.
#ifndef GENTLE_WATCH_POST_INTENTS_H_
#define GENTLE_WATCH_POST_INTENTS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/file_lock.h"
#include "store/status.h"
#include "store/verdict_name.h"
#include "watch/post_as.h"
#include "watch/review_event.h"
#include "watch/watch_db.h"

namespace gentle::watch {

inline constexpr int kPostSchemaVersion = 1;

struct PostIntent {
  int64_t seq = 0;
  std::string pr;  // FormatPrKey
  std::string lineage;
  int64_t round = 0;
  store::RoleWord role;  // as the row holds it
  std::string revision;
  std::string nonce;  // the marker's nonce= (32 hex)
  PostAs as = PostAs::kReview;
  std::string endpoint;   // github: the gh hostname ("" for gh's default); gitea: the base URL
  std::string text;       // the comment's exact bytes
  ReviewEventWord event;  // as the row holds it; empty when posted as a comment
  int64_t attempts = 0;   // times sent (or about to be)
  bool open = true;
  std::string posted_id;  // closed: the canonical seen id ("N" or "review:N")
  std::string created_at, posted_at;
};

// The lock of one clone's posts (see above).
Result<store::FileLock> LockPosts(const std::string& common_dir);

class PostIntents {
 public:
  // Creates the file (a seen ledger first) and the tables when missing.
  static Result<PostIntents> Open(const std::string& common_dir);
  PostIntents(PostIntents&&) noexcept = default;
  PostIntents& operator=(PostIntents&&) noexcept = default;

  // The intent of one verdict on one PR, open or closed.
  Result<std::optional<PostIntent>> Find(const std::string& pr, const std::string& lineage,
                                         int64_t round, store::ReviewerRole role,
                                         const std::string& revision);
  // The open intents of `pr`, oldest first; every PR's when `pr` is empty.
  Result<std::vector<PostIntent>> Unanswered(const std::string& pr);
  // Records `intent` (open, its attempts as given); sets its seq. Fault point
  // `post:intent-recorded` after the commit.
  Status Record(PostIntent* intent);
  Status SetAttempts(int64_t seq, int64_t attempts);
  // Closes the intent: posted as `posted_id`, recorded in the seen ledger at `recorded_at`.
  Status Close(int64_t seq, const std::string& posted_id, const std::string& recorded_at);
  // Forgets an intent the forge refused (nothing was posted).
  Status Remove(int64_t seq);

 private:
  explicit PostIntents(WatchDb db) : db_(std::make_unique<WatchDb>(std::move(db))) {}
  std::unique_ptr<WatchDb> db_;
};

// Read-only, creating nothing: whether `pr` (any PR when empty) has an open intent (false when
// there is no file or no intent table).
Result<bool> HasUnansweredPosts(const std::string& common_dir, const std::string& pr);

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_POST_INTENTS_H_
