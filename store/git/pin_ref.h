// Pin refs: refs/gentle-ai/reviews/<lineage> points at a commit whose tree holds the lineage's base
// tree (as "base") and candidate tree (as "candidate"), so `git gc` keeps every object a live
// lineage needs. The commit is deterministic (fixed author, time 0), so writing a pin twice for the
// same trees gives the same commit id. Writing or deleting a pin whose ref lock (or
// packed-refs.lock) is taken answers `busy` with the lock file in details["lock"]: a lock is never
// broken here. This header reads pins; writing and deleting them is store/git/pin_ref_write.h, in
// the store's write target.
#ifndef GENTLE_STORE_GIT_PIN_REF_H_
#define GENTLE_STORE_GIT_PIN_REF_H_

#include <string>
#include <vector>

#include "store/git/repository.h"
#include "store/status.h"

namespace gentle::store::git {

bool PinRefExists(const Repository& repo, const std::string& lineage);
// Lineage ids of every refs/gentle-ai/reviews/* ref, sorted.
Result<std::vector<std::string>> ListPinRefs(const Repository& repo);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_PIN_REF_H_
