// FETCH: `review fetch [--remote R]` (docs/format.md). Brings the remote's review histories
// into refs/gentle-ai/remotes/<R>/reviews/<lineage> with the user's own git (transaction/
// git_cli.h), never over the local refs/gentle-ai/reviews/*, then verifies each fetched history
// whole (store/history_chain.h VerifyHistoryChain) and reports it per lineage.
//
// The remote name is checked (store::ValidateRemoteName: `usage`) before anything runs; a remote
// git does not know is `not_found`, and so is any other failure of git fetch (transport,
// authentication, a missing repository; git's reason in the message), except that git failing to
// update a local ref because another process holds its lock (`<ref>.lock` or `packed-refs.lock`:
// a concurrent fetch; details.lock names the file) or moved or created it between git's read and
// its update (git quotes the ref, `refs/gentle-ai/remotes/R/reviews/<lineage>`, and it is a file
// or absent; details.ref names it) is `busy` (exit 12, safe to retry). git runs as
//   git -C <worktree> fetch --no-tags --no-write-fetch-head --prune --recurse-submodules=no R
//       +refs/gentle-ai/reviews/*:refs/gentle-ai/remotes/R/reviews/*
// so the remote's copy replaces the previous one (a rewritten remote history is verified like any
// other) and a history the remote no longer has is dropped. The store itself is not touched (no
// lock is held while git talks to the remote). A fetched history that does not verify is reported
// (`verified: false` and the error) and not an error of the fetch: every read verb refuses it
// (`corrupted`), and it never enters the store.
#ifndef GENTLE_TRANSACTION_FETCH_H_
#define GENTLE_TRANSACTION_FETCH_H_

#include <string>
#include <vector>

#include "store/history_verb.h"
#include "store/review_state.h"
#include "store/status.h"

namespace gentle::transaction {

struct FetchedLineageReport {
  std::string lineage;
  std::string tip;
  store::StateName state;  // the verified tip's state (consumed / retired when terminal); "" if not
  store::HistoryVerbWord terminal;  // burn or abandon; empty when the tip is not terminal
  bool verified = false;
  Status error;  // why it did not verify
};

struct FetchReport {
  std::string remote;
  std::vector<FetchedLineageReport> lineages;  // by lineage id
};

Result<FetchReport> FetchReviews(const std::string& cwd, const std::string& remote);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_FETCH_H_
