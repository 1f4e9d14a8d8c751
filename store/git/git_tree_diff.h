// GitTreeDiff: the changes between two trees, as and in the order git's own tree diff
// (`git diff-tree -r --no-renames`, and so `git diff <tree> <tree>`) reports them.
//
// Both trees are walked as stored, never sorted. At each level the two entry lists are merged by
// their heads: the head that comes first in git's tree order (TreeOrderCompare: names bytewise, a
// subtree as if its name ended in '/') is reported, as deleted (base) or added (candidate), and
// the walk moves past it; two heads that compare equal are paired and both passed. A paired
// subtree whose ids differ is walked at that point; an unpaired subtree is walked against nothing,
// every entry under it deleted or added, in stored order. A paired non-tree is reported when its
// canonical mode (CanonicalMode) or id differs: 'M', or 'T' when the type changes (file, symlink
// and gitlink are distinct types). Paired subtrees with equal ids are never read.
//
// For trees in git's canonical order (everything git writes) that is bytewise order of the full
// paths, each path once. For trees `git fsck` calls broken (written with `git hash-object -t tree
// --literally`: entries out of order, a name twice, a file and a subtree of one name) it is still
// git's order, which can report a path twice (deleted where its entries do not meet in the merge,
// and added again) or report an unchanged path. Not git's: two heads that compare equal while one
// is a subtree and the other not (only a name containing '/', which git fsck calls fullPathname,
// can do that; git then fails or writes a mode-040000 file) are reported as two unpaired entries.
//
// Errors: whatever `read_subtree` returns for a subtree that must be read, unchanged.
#ifndef GENTLE_STORE_GIT_GIT_TREE_DIFF_H_
#define GENTLE_STORE_GIT_GIT_TREE_DIFF_H_

#include <git2.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "store/git/raw_tree.h"
#include "store/status.h"

namespace gentle::store::git {

struct TreeChange {
  std::string path;
  char status;        // 'A', 'D', 'M', or 'T' (file <-> symlink <-> gitlink at one path)
  uint32_t old_mode;  // canonical; 0 when absent
  uint32_t new_mode;
  git_oid old_oid;  // all zero when absent
  git_oid new_oid;
};

// Reads a subtree the walk must open, checked (store::git::ReadTree, or trees held in memory).
using SubtreeReader = std::function<Result<RawTree>(const git_oid& id)>;

// The changes from `base` to `candidate`, in git's order (above).
Result<std::vector<TreeChange>> GitTreeDiff(const SubtreeReader& read_subtree, const RawTree& base,
                                            const RawTree& candidate);

// The paths of `changes` as `git diff-tree -r --name-only` lists them, then sorted bytewise: one
// per change (a path git reports twice is there twice).
std::vector<std::string> SortedPaths(const std::vector<TreeChange>& changes);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_GIT_TREE_DIFF_H_
