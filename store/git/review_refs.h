// Review refs: refs/gentle-ai/reviews/<lineage> is the lineage's history (store/history_ref.h);
// earlier builds wrote there a single deterministic "pin" commit whose tree holds only "base" and
// "candidate", which the next write replaces. Either way the ref keeps every object the lineage
// needs from `git gc`. This header lists the refs and names the answer when one is locked;
// deleting an old pin is store/git/review_refs_write.h, in the store's write target.
#ifndef GENTLE_STORE_GIT_REVIEW_REFS_H_
#define GENTLE_STORE_GIT_REVIEW_REFS_H_

#include <string>
#include <vector>

#include "store/git/repository.h"
#include "store/status.h"

namespace gentle::store::git {

// Lineage ids of every refs/gentle-ai/reviews/* ref, sorted.
Result<std::vector<std::string>> ListHistoryRefs(const Repository& repo);

// The answer when libgit2 finds the lock of ref `name` (or packed-refs.lock) taken: `busy`, with
// the ref's lineage and the lock file in details["lock"], never `internal`. A lock this store's
// own writer died holding is removed by the next writer (store/writer_owner.h); any other (a git
// command, running or stopped) stays until someone removes it, as git leaves it.
Status RefLockedStatus(const Repository& repo, const std::string& name);

// The lineage of a refs/gentle-ai/reviews/<lineage> ref name; "" for any other name.
std::string LineageOfRef(const std::string& name);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_REVIEW_REFS_H_
