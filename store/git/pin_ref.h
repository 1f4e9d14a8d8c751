// Review refs: refs/gentle-ai/reviews/<lineage> is the lineage's history (store/history_ref.h);
// earlier builds wrote there a single deterministic "pin" commit whose tree holds only "base" and
// "candidate", which the next write replaces. Either way the ref keeps every object the lineage
// needs from `git gc`. This header lists the refs and names the answer when one is locked;
// deleting an old pin is store/git/pin_ref_write.h, in the store's write target.
#ifndef GENTLE_STORE_GIT_PIN_REF_H_
#define GENTLE_STORE_GIT_PIN_REF_H_

#include <string>
#include <vector>

#include "store/git/repository.h"
#include "store/status.h"

namespace gentle::store::git {

// Lineage ids of every refs/gentle-ai/reviews/* ref, sorted.
Result<std::vector<std::string>> ListPinRefs(const Repository& repo);

// The answer when libgit2 finds the lock of ref `name` (or packed-refs.lock) taken: `busy`,
// naming the lock file in details["lock"]. Git never breaks a ref lock by itself (the holder may
// be a running git command), and neither does this store: a lock left by a killed process stays
// until someone removes it, and until then every write of that ref answers this, never
// `internal`.
Status RefLockedStatus(const Repository& repo, const std::string& name);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_PIN_REF_H_
