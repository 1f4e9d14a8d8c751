// Posting a round's comment on a PR and recording its id, in one crash-safe step (`review post`,
// docs/loop.md "review post"), and recovering the posts a process left unanswered.
//
// PostComment, under the clone's post lock (watch/post_intents.h):
//  1. recovers the PR's unanswered intents first (below);
//  2. a verdict already posted on the PR (same lineage, round, role and revision) answers with
//     the recorded id, `created: false`, and sends nothing;
//  3. records the intent (fault point `post:intent-recorded`), then sends: GitHub a PR review
//     (`POST repos/O/R/pulls/N/reviews`, event APPROVE, REQUEST_CHANGES or COMMENT after the
//     verdict) or an issue comment (`POST repos/O/R/issues/N/comments`); Gitea the same paths
//     (events APPROVED, REQUEST_CHANGES, COMMENT);
//  4. on the forge's 200/201 with the new id: fault point `post:sent` (posted, nothing recorded),
//     the id recorded as posted in the seen ledger (`review:N` for a review, `N` for a comment),
//     fault point `post:id-recorded`, the intent closed.
// The forge's refusal (401, 403, 404, 422, another 4xx, a rate limit) removes the intent: nothing
// is recorded, and the answer is a code (401/403 `forbidden`, 404 `not_found`, 422 and other 4xx
// `wrong_state`, 403 with X-RateLimit-Remaining 0 or 429 `busy`; details.http_status, and the
// forge's own message, printable ASCII, at most 200 bytes, with the token cut out; an undeclared
// Gitea host's 401 names how to declare it). A forge that cannot be reached or redirects, a 5xx
// or an answer without an id leave the intent open (`busy`, or `corrupted` for a malformed
// answer): whether the forge took it is unknown until recovered.
//
// Recovery of an open intent: the authenticated user's login (GitHub `user`, Gitea `user`), then
// the PR's reviews (posted as a review) or issue comments (as a comment), every page, bodies
// read: the one whose author is that login and whose marker carries the intent's nonce is the
// post; its id is recorded and the intent closed. A comment by anyone else is never taken, whatever
// its marker says. Not found: sent once more if it was sent only once, else the intent is removed
// and the answer is `not_found` (sent twice, on the forge neither time). A listing longer than
// kMaxRecoveryPages pages is `budget_exceeded` and the intent stays open: a missed post must never
// be sent twice.
#ifndef GENTLE_WATCH_POSTER_H_
#define GENTLE_WATCH_POSTER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "store/status.h"
#include "store/verdict_name.h"
#include "watch/forge_client.h"
#include "watch/post_as.h"
#include "watch/post_transport.h"

namespace gentle::watch {

inline constexpr int kMaxRecoveryPages = 100;

// The transports of one forge endpoint (a GitHub Enterprise HOST[:PORT], "" for gh's host, or the
// Gitea base URL).
struct PostLinks {
  std::function<std::unique_ptr<ForgeClient>(store::Forge, const std::string& endpoint)> reader;
  std::function<std::unique_ptr<ForgePoster>(store::Forge, const std::string& endpoint)> poster;
};
// The transports of watch/forge_client.h and watch/post_transport.h, with the hosts declared Gitea
// in the repository at `worktree_root` (watch/routing.h; empty: none but the git configuration's
// of the current directory). The token is cut out of any forge message.
PostLinks DefaultPostLinks(const std::string& worktree_root);

struct PostRequest {
  std::string pr;  // FormatPrKey: github or gitea
  std::string endpoint;
  std::string lineage;
  int64_t round = 0;
  store::ReviewerRole role = store::ReviewerRole::kReviewer;
  std::string revision;
  store::Verdict verdict = store::Verdict::kApprove;
  PostAs as = PostAs::kReview;
  std::string text;  // the rendered comment, its marker carrying `nonce`
  std::string nonce;
};

struct PostOutcome {
  std::string id;  // the canonical seen id: "N" (a comment) or "review:N"
  bool created = false;
  PostAs as = PostAs::kReview;
  std::string recorded_at;             // when the id was recorded (this run or an earlier one)
  std::vector<std::string> recovered;  // ids of earlier unanswered posts recorded on the way
};

// `request.text` is rendered by the caller with a fresh `request.nonce` in its marker; it is sent
// only when nothing was posted for this verdict yet.
Result<PostOutcome> PostComment(const std::string& common_dir, const PostLinks& links,
                                PostRequest request);

// Recovers every unanswered post of `pr` (every PR's when empty) in `common_dir`; the ids
// recorded. Without `writer`, nothing to do (no intent, no file) creates nothing, and the look
// is read-only. A writer (`review watch`, which keeps its own state in the file) opens the file
// as a writer does, so it also recovers a ledger only a writer can read (docs/loop.md).
Result<std::vector<std::string>> RecoverPosts(const std::string& common_dir, const PostLinks& links,
                                              const std::string& pr, bool writer = false);

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_POSTER_H_
