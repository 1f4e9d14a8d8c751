// PUSH: `review push [--remote R] [--lineage L]...` (docs/format.md). Pushes each lineage's
// history refs/gentle-ai/reviews/<L> (every local history ref when no lineage is named) to the
// same name on the remote with the user's own git (transaction/git_cli.h), never forced.
//
// Order: the remote name and the lineage ids are checked (`usage`) before anything runs. Then,
// under the store's shared read guard, each history's tip is read and checked against its record
// (store/history_sync.h): a history ahead of its record (the prepared tip of an interrupted
// mutation) is refused with `reconciliation_prepared` (the next writer or `review repair` resolves
// it), a named lineage without a history ref is `not_found`. The guard is released and git pushes
// exactly the tips read (`git push --porcelain R <tip>:refs/gentle-ai/reviews/<L>...`), so a
// mutation that lands meanwhile is not pushed half-seen. A remote whose history diverged
// (not a fast-forward, or refused by the remote) is `conflict` (exit 11) naming the lineage, its
// local tip and git's reason in details (git still pushes the other lineages: the refs are not
// pushed atomically). A remote git does not know, or any other failure of git push, is
// `not_found` with git's reason.
#ifndef GENTLE_TRANSACTION_PUSH_H_
#define GENTLE_TRANSACTION_PUSH_H_

#include <string>
#include <vector>

#include "store/status.h"

namespace gentle::transaction {

struct PushedLineage {
  std::string lineage;
  std::string tip;
  std::string result;  // "created", "updated" or "up_to_date"
};

struct PushReport {
  std::string remote;
  std::vector<PushedLineage> lineages;  // by lineage id
};

// `lineages` empty: every local history ref.
Result<PushReport> PushReviews(const std::string& cwd, const std::string& remote,
                               const std::vector<std::string>& lineages);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_PUSH_H_
