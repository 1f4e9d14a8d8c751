// TreeRows: a tree as the flat, bytewise-sorted list of its non-tree entries (blobs, symlinks,
// gitlinks) with canonical modes, and the operations START and STATUS need on it:
//  - FlattenTree reads a tree from the object database (read-only);
//  - BuildTree (store/git/tree_builder.h, in the write target) turns rows back into a tree id;
//  - ChangedPaths is `git diff-tree -r --name-only --no-renames` over the rows of two trees
//    in git's canonical order: every path whose presence, canonical mode or object id differs,
//    sorted bytewise, each once. (For a tree out of canonical order git lists what its walk of
//    the entries as stored meets, store/git/git_tree_diff.h, which rows cannot tell.)
#ifndef GENTLE_STORE_GIT_TREE_ROWS_H_
#define GENTLE_STORE_GIT_TREE_ROWS_H_

#include <git2.h>

#include <cstdint>
#include <string>
#include <vector>

#include "store/git/git_util.h"
#include "store/status.h"

namespace gentle::store::git {

class RawTree;
struct RawTreeEntry;

struct TreeRow {
  std::string path;
  uint32_t mode;  // canonical: 0100644, 0100755, 0120000, 0160000; 040000 for a folded row
  git_oid oid;
};
using TreeRows = std::vector<TreeRow>;

// Which subtrees a walk leaves folded: a *folded row* {"a/b/", 040000, id} stands for every row
// under subtree a/b (its path ends in '/', so it sorts where those rows would). Two row lists
// folded at the same directories with the same ids compare (ChangedPaths) and build (BuildTree)
// as the unfolded lists would; store/git/cache_tree_fold.h decides where that holds.
class SubtreeFold {
 public:
  virtual ~SubtreeFold() = default;
  // Whether the subtree at `path` ("a/b/") with id `id` becomes one folded row.
  virtual bool Fold(const std::string& path, const git_oid& id) const = 0;
};

// git's canon_mode, for every mode a tree or index entry can carry: a regular file becomes
// 100755 when its owner-execute bit is set, else 100644 (100664 and 100654 -> 100644); symlinks
// 120000, trees 040000, any other nonzero mode a gitlink 160000; 0 (an absent side) stays 0.
// The one definition: START's paths and the export's tree diff must agree on it.
uint32_t CanonicalMode(uint32_t mode);

// Tree object ids, sorted by git_oid_cmp.
using TreeIds = std::vector<git_oid>;

// kObjectsMissing when the tree or a subtree is absent, not a tree, malformed, or does not hash
// to its id (every tree is read through store/git/raw_tree.h, checked). When `trees` is given it
// receives the ids of every tree read, the root included, sorted. When `canonical` is given it is
// set to whether every tree read is in git's canonical order (RawTree::CanonicalOrder). When
// `fold` is given, a subtree it folds is one folded row and is not read.
Result<TreeRows> FlattenTree(git_repository* repo, const git_oid& tree, TreeIds* trees = nullptr,
                             bool* canonical = nullptr, const SubtreeFold* fold = nullptr);

// The rows of every non-tree entry under `tree` (AppendTreeRows), or of `entry` itself or under
// it (AppendEntryRows), appended in a pre-order walk in stored order (as git_tree_walk), paths
// prefixed with `prefix`, modes canonical; subtrees are read, checked, from `odb`. When
// `canonical` is given it is cleared if a tree of the walk is not in git's canonical order
// (RawTree::CanonicalOrder); when `subtrees` is given the id of every subtree read is appended to
// it (unsorted); a subtree `fold` folds is one folded row, not read. Errors: ReadTree's, for the
// subtree that could not be read.
Status AppendTreeRows(git_odb* odb, const RawTree& tree, const std::string& prefix, TreeRows* out,
                      bool* canonical = nullptr, std::vector<git_oid>* subtrees = nullptr,
                      const SubtreeFold* fold = nullptr);
Status AppendEntryRows(git_odb* odb, const RawTreeEntry& entry, const std::string& prefix,
                       TreeRows* out, bool* canonical = nullptr,
                       std::vector<git_oid>* subtrees = nullptr, const SubtreeFold* fold = nullptr);

std::vector<std::string> ChangedPaths(const TreeRows& base, const TreeRows& candidate);

// "<mode> <type> <oid>\t<path>\0" as `git ls-tree -r -t -z` prints the row.
std::string LsTreeRecord(const TreeRow& row);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_TREE_ROWS_H_
