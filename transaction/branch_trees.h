// BranchTrees: the trees of the commits on HEAD's first-parent history, so that status can tell
// that an approved lineage's candidate was committed on the branch (transaction/next_action.h,
// burn / merged). Read-only; the walk stops after kMaxBranchWalk commits (newest first), so a
// long history costs a bounded number of commit reads. An unborn HEAD, a detached HEAD that
// cannot be read, or a commit missing from the object database ends the walk there: the trees
// seen so far are the answer (a tree not found is "not merged", never an error).
#ifndef GENTLE_TRANSACTION_BRANCH_TREES_H_
#define GENTLE_TRANSACTION_BRANCH_TREES_H_

#include <cstddef>
#include <set>
#include <string>

#include "store/git/repository.h"

namespace gentle::transaction {

inline constexpr size_t kMaxBranchWalk = 1000;

// The tree ids (hex) of at most `limit` commits on HEAD's first-parent history.
std::set<std::string> BranchTrees(const store::git::Repository& repo,
                                  size_t limit = kMaxBranchWalk);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_BRANCH_TREES_H_
