// CaptureSnapshot: the live candidate a Selector names, as a store::Snapshot (docs/format.md,
// docs/lifecycle.md). Without a MemoryWrites nothing is written or kept anywhere (STATUS computes
// the live target this way); with one (`held`, which must have diverted `repo`'s own handle) the
// new blobs and trees are kept in it, for START and REVISE to flush once they accept the candidate
// (store/git/memory_writes.h). Nothing here can write to the object database.
#ifndef GENTLE_TRANSACTION_CAPTURE_H_
#define GENTLE_TRANSACTION_CAPTURE_H_

#include "store/git/memory_writes.h"
#include "store/git/repository.h"
#include "store/git/tree_rows.h"
#include "store/snapshot.h"
#include "store/status.h"
#include "transaction/selector.h"

namespace gentle::transaction {

// Hashing only, on a workspace whose .git/index is at least this large, HEAD's trees are read on
// a helper thread while the index and the worktree are; below it the helper's own repository
// handle (~80 system calls) costs more than the overlap gains.
inline constexpr long kParallelBaseMinIndexBytes = 256 * 1024;

// Refuses inconsistent selectors (e.g. --head without commit-range) with `usage`.
Status ValidateSelector(const Selector& selector);

Result<store::Snapshot> CaptureSnapshot(const store::git::Repository& repo,
                                        const Selector& selector, store::git::MemoryWrites* held);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_CAPTURE_H_
