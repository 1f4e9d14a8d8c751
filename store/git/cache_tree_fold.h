// CacheTreeFold: the directories a worktree left as they were, found with the index's cache-tree
// (its TREE extension, store/git/worktree_index.h) the way git's diff-index and write-tree use
// it, so that comparing a base tree with the worktree's candidate reads and hashes only the
// directories that changed.
//
// Contract: a directory D ("a/b/") is folded — one folded row {D, 040000, id} (store/git/
// tree_rows.h) on both sides instead of every row under D — only when all of these hold:
//  1. the cache-tree holds a valid id for D and its entry count is the number of index entries
//     under D;
//  2. the base tree's subtree at D has that same id;
//  3. the candidate's rows under D are the index entries under D, one for one and in order, each
//     with its canonical mode and id: every entry at stage 0, none intent-to-add, no intended-
//     untracked path under D, and no file under D changed, deleted or hashed to another id.
// Then the candidate's subtree at D is the cache-tree's id — the tree git's write-tree would make
// of those entries, trusted as git trusts it — which equals the base's, so nothing under D
// changed and both lists compare (ChangedPaths) and build (BuildTree) exactly as unfolded.
//
// Use: construct from the index entries; give it to FlattenTree of the base (it folds by 1 and 2,
// and is read-only, so any thread may use it). The candidate's rows may already be folded where
// its side of condition 3 is known from the probes alone (CleanDirs: every entry's row is the
// entry itself, found without hashing), so that no row is made under such a directory; once the
// candidate's rows are complete, Finish unfolds every base fold the candidate broke (from the
// index entries under it, folding clean subdirectories again), unfolds every candidate fold the
// base does not share (likewise), and folds the candidate's rows at the rest.
#ifndef GENTLE_STORE_GIT_CACHE_TREE_FOLD_H_
#define GENTLE_STORE_GIT_CACHE_TREE_FOLD_H_

#include <git2.h>

#include <cstddef>
#include <string>
#include <vector>

#include "store/git/tree_rows.h"
#include "store/git/worktree_index.h"
#include "store/status.h"

namespace gentle::store::git {

class CacheTreeFold : public SubtreeFold {
 public:
  // `entries` in index order; `dirs` the index's valid cache-tree directories.
  // The root is never folded; a directory whose count does not match its entries is dropped.
  CacheTreeFold(const std::vector<WorktreeIndexEntry>& entries,
                const std::vector<CacheTreeDir>& dirs);

  // Conditions 1 and 2: the base's subtree at `path` has the cache-tree's id for it.
  bool Fold(const std::string& path, const git_oid& id) const override;

  // Whether any directory can fold at all (else there is nothing to do).
  bool empty() const { return dirs_.empty(); }

  // A directory the fold knows: its cache-tree id and the index entries under it, [first, last).
  struct Dir {
    std::string path;
    git_oid id;
    size_t first, last;
  };

  // The outermost directories whose candidate rows would be exactly their index entries, in path
  // order, none inside another: every entry under it is marked in `entry_is_row` (the caller's
  // word that the entry's candidate row is {path, canonical mode, id} of the entry itself: stage
  // 0, not intent-to-add, stat data matching, no hashing needed) and no `intended` (sorted
  // intended-untracked) path is under it. The candidate's rows may then hold the folded row
  // {path, 040000, id} of each instead of the rows under it.
  std::vector<const Dir*> CleanDirs(const std::vector<char>& entry_is_row,
                                    const std::vector<std::string>& intended) const;

  // With the base's rows as FlattenTree folded them (this fold) and the candidate's complete
  // rows, sorted, folded only at CleanDirs directories (or not at all): base folds that fail
  // condition 3 are replaced by the rows of their subtree (made from the index entries under it,
  // which conditions 1 and 2 make the subtree's; read from `odb` when an entry under it is in
  // conflict; a clean subdirectory folded again; *canonical cleared if a tree read is out of
  // git's order), candidate folds that are neither a base fold nor inside one are replaced by the
  // rows of their index entries, and the candidate's rows are folded at every fold left in the
  // base. `entries` are the same entries as at construction; `intended` the sorted
  // intended-untracked paths. Errors: ReadTree's, as kObjectsMissing.
  Status Finish(git_odb* odb, const std::vector<WorktreeIndexEntry>& entries,
                const std::vector<std::string>& intended, TreeRows* base, TreeRows* candidate,
                bool* canonical) const;

 private:
  class Unfolding;  // the fold used while a broken fold is read again: conditions 1, 2 and 3

  const Dir* Find(const std::string& path) const;
  // Condition 3 for `dir` against the candidate's complete rows (folded rows included).
  bool Clean(const Dir& dir, const std::vector<WorktreeIndexEntry>& entries,
             const std::vector<std::string>& intended, const TreeRows& candidate) const;

  // The base's rows under a base fold at `dir` that the candidate broke, made from the index
  // entries under it, with every subdirectory the candidate left clean folded; false (nothing
  // appended) when an entry under it is in conflict, which no git-written cache-tree allows.
  bool AppendIndexRows(const Dir& dir, const std::vector<WorktreeIndexEntry>& entries,
                       const std::vector<std::string>& intended, const TreeRows& candidate,
                       TreeRows* out) const;

  // The candidate's folds that the base neither shares nor contains, replaced by the rows of
  // their index entries. Errors: kInternal for a candidate fold the cache-tree does not hold.
  Status UnfoldCandidate(const std::vector<WorktreeIndexEntry>& entries, const TreeRows& base,
                         TreeRows* candidate) const;

  std::vector<Dir> dirs_;  // sorted by path
};

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_CACHE_TREE_FOLD_H_
