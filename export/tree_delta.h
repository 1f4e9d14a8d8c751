// DiffTrees: the changed entries between two trees, as `git diff --no-renames` (with the pinned
// flags of docs/engine.md) sees them, in patch output order. Shared by the patch engine and
// the derivation's manifest check.
//
// The walk is store::git::GitTreeDiff (store/git/git_tree_diff.h): both trees as stored, merged
// level by level in git's tree order, so the order is git's for every tree, canonical or not
// (bytewise path order for the trees git writes; for trees `git fsck` calls broken, git's own,
// which can show one path twice). Like git, only subtrees whose ids differ are read, each
// hash-checked.
//
// Errors: kObjectsMissing (details.object) when a tree or a subtree that must be read is absent,
// of another type, malformed or does not hash to its id.
#ifndef GENTLE_EXPORT_TREE_DELTA_H_
#define GENTLE_EXPORT_TREE_DELTA_H_

#include <git2.h>

#include <vector>

#include "store/git/git_tree_diff.h"
#include "store/status.h"

namespace gentle::exporter {

using TreeChange = store::git::TreeChange;

// In git's output order (above).
Result<std::vector<TreeChange>> DiffTrees(git_repository* repo, const git_oid& base_tree,
                                          const git_oid& candidate_tree);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_TREE_DELTA_H_
