// DiffTrees: the changed entries between two trees, as `git diff --no-renames` (with the pinned
// flags of DESIGN.md section 8) sees them, in patch output order. Shared by the patch engine and
// the derivation's manifest check.
//
// Like git's own tree diff, only subtrees whose ids differ are read: an entry equal on both sides
// (same name, type, canonical mode and id) cannot change the patch, and an equal subtree is never
// opened. (libgit2's git_diff_tree_to_tree, used before, reads every subtree of both trees, which
// made a two-line export of git.git read ~400 trees.) Trees not in git's canonical entry order
// (written with `hash-object --literally`; git fsck calls them broken) are flattened whole, then
// sorted. git walks those as stored, so its section order can differ there: DiffTrees says so in
// *canonical_order, and the derivation (export/derivation.h) then hands the patch to git.
//
// Errors: kObjectsMissing (details.object) when a tree or a subtree that must be read is absent;
// kCorrupted for a malformed id.
#ifndef GENTLE_EXPORT_TREE_DELTA_H_
#define GENTLE_EXPORT_TREE_DELTA_H_

#include <git2.h>

#include <cstdint>
#include <string>
#include <vector>

#include "store/status.h"

namespace gentle::exporter {

struct TreeChange {
  std::string path;
  char status;        // 'A', 'D', 'M', or 'T' (file <-> symlink <-> gitlink at one path)
  uint32_t old_mode;  // canonical; 0 when absent
  uint32_t new_mode;
  git_oid old_oid;  // all zero when absent
  git_oid new_oid;
};

// Bytewise path order, which is git's order for canonical trees. *canonical_order (when given):
// false when a tree the walk read is not in canonical order.
Result<std::vector<TreeChange>> DiffTrees(git_repository* repo, const git_oid& base_tree,
                                          const git_oid& candidate_tree,
                                          bool* canonical_order = nullptr);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_TREE_DELTA_H_
