// Pin refs: refs/gentle-ai/reviews/<lineage> points at a commit whose tree holds the lineage's base
// tree (as "base") and candidate tree (as "candidate"), so `git gc` keeps every object a live
// lineage needs. The commit is deterministic (fixed author, time 0), so writing a pin twice for the
// same trees gives the same commit id. Writing or deleting a pin whose ref lock (or
// packed-refs.lock) is taken answers `busy` with the lock file in details["lock"]: a lock is never
// broken here.
#ifndef GENTLE_STORE_GIT_PIN_REF_H_
#define GENTLE_STORE_GIT_PIN_REF_H_

#include <string>
#include <vector>

#include "store/git/repository.h"
#include "store/status.h"

namespace gentle::store::git {

Status WritePinRef(const Repository& repo, const std::string& lineage, const std::string& base_tree,
                   const std::string& candidate_tree);
Status DeletePinRef(const Repository& repo, const std::string& lineage);
// DeletePinRef for a pin that is only clean-up once the lineage's record is gone: a locked ref is
// left in place (a pin only keeps objects reachable; fsck reports it as `pin_orphan` beside the
// `ref_lock`, and a person removes it), so a lock left by a killed process cannot stop burn,
// abandon or recovery. Every other failure is returned.
Status DeletePinRefUnlessLocked(const Repository& repo, const std::string& lineage);
bool PinRefExists(const Repository& repo, const std::string& lineage);
// Lineage ids of every refs/gentle-ai/reviews/* ref, sorted.
Result<std::vector<std::string>> ListPinRefs(const Repository& repo);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_PIN_REF_H_
