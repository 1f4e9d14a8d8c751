// BuildTree: a tree's rows (store/git/tree_rows.h) turned back into a tree id, written to the
// object database (the history's commits). In the store's write target: code linked only to the
// read target cannot write a tree; it hashes with store/git/tree_hash.h.
#ifndef GENTLE_STORE_GIT_TREE_BUILDER_H_
#define GENTLE_STORE_GIT_TREE_BUILDER_H_

#include <git2.h>

#include "store/git/tree_hash.h"
#include "store/git/tree_rows.h"
#include "store/status.h"

namespace gentle::store::git {

enum class ObjectWrites { kHashOnly, kWrite };
// HashTree's rows and trees (store/git/tree_hash.h); kHashOnly is HashTree. With kWrite, a tree
// whose id is in `reachable` is not written: those are trees already in the object database and
// reachable from a commit (the base's, from FlattenTree), so git_odb_write would only hash them
// again with libgit2's collision-detecting SHA-1 and freshen them, which a reachable object does
// not need. When `made` is given it receives every tree made, written or not (so a walk can read
// trees that were only hashed).
Result<git_oid> BuildTree(git_repository* repo, const TreeRows& rows, ObjectWrites writes,
                          const TreeIds* reachable = nullptr, TreeObjects* made = nullptr);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_TREE_BUILDER_H_
