// Deleting review refs (store/git/review_refs.h): store reset removes every one, recovery drops an
// old single-commit pin. In the store's write target; a locked ref answers `busy`
// (RefLockedStatus).
#ifndef GENTLE_STORE_GIT_REVIEW_REFS_WRITE_H_
#define GENTLE_STORE_GIT_REVIEW_REFS_WRITE_H_

#include <string>

#include "store/git/repository.h"
#include "store/status.h"

namespace gentle::store::git {

Status DeleteHistoryRef(const Repository& repo, const std::string& lineage);
// DeleteHistoryRef for a history ref that is only clean-up once the lineage's record is gone: a
// locked ref is left in place (it only keeps objects reachable; fsck reports it as `pin_orphan`
// beside the `ref_lock`, and a person removes it), so a lock left by a killed process cannot stop
// burn, abandon or recovery. Every other failure is returned.
Status DeleteHistoryRefUnlessLocked(const Repository& repo, const std::string& lineage);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_REVIEW_REFS_WRITE_H_
