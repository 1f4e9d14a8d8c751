// Watcher: one polling cycle of `review watch` (docs/watch.md): which PRs are due, what each
// forge answered, which hints that caused, and their delivery.
//
// Per repository (RepoWatch: its common dir, forge, worktrees, state) and cycle:
// - Discovery (no --pr): one conditional request for the open PRs (`pulls?state=open`); the
//   numbers whose head branch is checked out in a worktree, plus every PR of the repository the
//   state still follows (so a merge is seen after the PR left the open list).
// - Per due PR (its next poll reached, its host not rate-limited or backing off): one
//   conditional request for the PR; a 304 costs nothing more. On a 200 whose metadata changed,
//   the ids of its comments, review comments and reviews are listed (never their bodies). The
//   first reading of a PR records it and wakes nobody. Reasons come from watch/reasons.h; a
//   `comments` wake whose new ids are all in the PR's seen ledger is dropped.
// - The new schedule of the PRs nothing changed for (304s) is written in one transaction after
//   the repository's PRs were asked (a crash before it only makes them due again).
// - A hint is recorded with the PR's new state in one transaction (fault point
//   `watch:hint-recorded` after it), then delivered: to --exec CMD with the hint and the owning
//   worktree as arguments (run by /bin/sh -c 'CMD "$@"'), to --on-new CMD with the hint when no
//   worktree owns the PR, or to the caller (stdout) otherwise. A hint run through a command is
//   marked delivered when the command exits 0; a stdout hint when the caller printed it
//   (MarkPrinted). Undelivered hints of earlier runs are delivered first.
// - A terminal PR (merged, closed) gets its last hint and is dropped.
// Failures never end the cycle: each is reported with the PR or repository it concerns. A
// forge that cannot be reached, redirects or answers 5xx, whose transport cannot run (no loadable
// libcurl, no gh for a GitHub token: `not_found`), or that refuses an undeclared host's tokenless
// request (`forbidden`), or whose API root breaks the transport's rules (`usage`), backs its host
// off (watch/schedule.h), so the cycle reports it once and skips the host's other PRs; 403/429 wait
// for the rate limit; a malformed answer or another status backs the PR off.
#ifndef GENTLE_WATCH_WATCHER_H_
#define GENTLE_WATCH_WATCHER_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loop/pr_key.h"
#include "store/status.h"
#include "watch/forge_client.h"
#include "watch/hint_sink.h"
#include "watch/routing.h"
#include "watch/schedule.h"
#include "watch/watch_db.h"

namespace gentle::watch {

struct RepoWatch {
  std::string root;        // the worktree given with --repo (or the current one)
  std::string common_dir;  // where review-loop.sqlite lives
  RepoForge forge;
  std::vector<Worktree> worktrees;
  std::vector<int64_t> prs;  // --pr numbers of this repository; empty: discover
};

struct WatchOptions {
  std::optional<std::string> exec;    // --exec CMD
  std::optional<std::string> on_new;  // --on-new CMD
};

struct DeliveredHint {
  HintRow hint;
  HintSink sink = HintSink::kStdout;
  std::string common_dir;
};

struct WatchError {
  std::string subject;  // a PR key or a repository path
  Status status;
};

struct CycleReport {
  std::vector<DeliveredHint> hints;  // delivered (stdout: to be printed, then MarkPrinted)
  std::vector<WatchError> errors;
  int64_t requests = 0;
  int64_t not_modified = 0;
  int64_t polled = 0;   // PRs asked about
  int64_t skipped = 0;  // PRs not due, or their host waiting
};

using ClientFactory = std::function<std::unique_ptr<ForgeClient>(const RepoForge&)>;
// MakeForgeClient for each repository's forge (watch/forge_client.h).
ClientFactory DefaultClients();

class Watcher {
 public:
  Watcher(Clock& clock, ClientFactory clients, WatchOptions options)
      : clock_(clock), clients_(std::move(clients)), options_(std::move(options)) {}

  // One cycle over `repos`. Errors of the state file itself end the cycle (returned).
  Result<CycleReport> RunCycle(std::vector<RepoWatch>& repos);
  // Marks the stdout hints of `report` delivered in their repositories' state.
  Status MarkPrinted(const CycleReport& report);

 private:
  Result<WatchDb*> Db(const std::string& common_dir);
  ForgeClient& Client(const RepoForge& forge);
  // A PR whose answer changed nothing we read (a 304, or a new ETag over the same metadata) is
  // appended to `unchanged` instead of written: the cycle writes them all in one transaction.
  Status PollPr(RepoWatch& repo, WatchDb& db, int64_t number, std::vector<PrRow>* unchanged,
                CycleReport* report);
  Result<std::vector<int64_t>> Discover(RepoWatch& repo, WatchDb& db, CycleReport* report);
  Status Deliver(const RepoWatch& repo, WatchDb& db, CycleReport* report);

  Clock& clock_;
  ClientFactory clients_;
  WatchOptions options_;
  std::map<std::string, std::unique_ptr<ForgeClient>> client_cache_;
  std::map<std::string, std::unique_ptr<WatchDb>> dbs_;
};

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_WATCHER_H_
