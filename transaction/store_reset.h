// STORE RESET: the explicit destructive seam (docs/lifecycle.md).
//
// Without `yes`, a read-only plan: what would be removed (the store root's entries and every
// refs/gentle-ai/reviews/* history ref). With `yes`, under the exclusive maintenance lock:
//   reset:store-moved  <gentle-ai>/review-transactions renamed to review-transactions.reset-<rnd>
//                      in one rename (from here on, every reader sees an empty store)
//   reset:unpinned     every history ref removed
//   reset:removed      the renamed directory removed
// A crash after the rename leaves the `.reset-*` directory; the next writer (or `index rebuild`)
// finishes the removal, so nothing stays half-done. Files beside the store root (the maintenance
// lock, gentle-ai's review-mode switch and other siblings) are kept.
#ifndef GENTLE_TRANSACTION_STORE_RESET_H_
#define GENTLE_TRANSACTION_STORE_RESET_H_

#include <string>
#include <vector>

#include "store/status.h"

namespace gentle::transaction {

struct ResetPlan {
  bool performed = false;
  std::string root;
  std::vector<std::string> paths;         // absolute paths under the store root
  std::vector<std::string> history_refs;  // full ref names
};

Result<ResetPlan> ResetStore(const std::string& cwd, bool yes);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_STORE_RESET_H_
