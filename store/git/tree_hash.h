// HashTree: a tree's rows (store/git/tree_rows.h) turned back into a tree id by hashing in memory.
// In the store's read target, and it writes nothing: a caller that keeps the trees made is handed
// each one (`emit`) and decides where it goes; the tree writer (store/git/tree_builder.h, write
// target) and the in-memory object overlay (store/git/memory_writes.h) are the two that do.
#ifndef GENTLE_STORE_GIT_TREE_HASH_H_
#define GENTLE_STORE_GIT_TREE_HASH_H_

#include <git2.h>

#include <functional>
#include <map>
#include <string>

#include "store/git/tree_rows.h"
#include "store/status.h"

namespace gentle::store::git {

// Tree objects' data by raw id (GIT_OID_RAWSZ bytes), as HashTree made them.
using TreeObjects = std::map<std::string, std::string>;

// Called with each tree made (its id and its data) that is not in `reachable`.
using TreeEmit = std::function<Status(const git_oid& id, const std::string& data)>;

// `rows` must be sorted bytewise by path with no duplicates; a folded row (store/git/tree_rows.h)
// is its subtree's id, taken as it is. Every tree made has its entries in git's tree order. When
// `made` is given it receives every tree made (so a walk can read trees that were only hashed).
// With `emit`, each tree made whose id is not in `reachable` (sorted, may be null) is handed to it
// once made; its error is returned.
Result<git_oid> HashTree(const TreeRows& rows, TreeObjects* made = nullptr,
                         const TreeIds* reachable = nullptr, const TreeEmit& emit = nullptr);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_TREE_HASH_H_
