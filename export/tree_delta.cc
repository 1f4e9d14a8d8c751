#include "export/tree_delta.h"

#include <string>

#include "store/git/object_reader.h"
#include "store/git/raw_tree.h"
#include "store/git/tree_rows.h"

namespace gentle::exporter {
namespace {

using store::git::OidHex;
using store::git::RawTree;

// Any failure to read a root tree (absent, not a tree, malformed, or not hashing to its id) is
// objects_missing, naming the tree.
Result<RawTree> ReadRoot(git_odb* odb, const git_oid& id) {
  auto tree = store::git::ReadTree(odb, id);
  if (tree.ok()) return tree;
  return Status(Code::kObjectsMissing, "tree " + OidHex(id) + " cannot be read from the object " +
                                           "database: " + tree.status().message())
      .WithDetail(DetailKey::kObject, OidHex(id));
}

// A subtree the walk could not read: objects_missing, naming that subtree.
Status UnderRoots(const Status& read, const std::string& roots) {
  Status status(Code::kObjectsMissing, "cannot read a tree under " + roots + ": " + read.message());
  if (const std::string* object = read.detail(DetailKey::kObject)) {
    status.WithDetail(DetailKey::kObject, *object);
  }
  return status;
}

}  // namespace

Result<std::vector<TreeChange>> DiffTrees(git_repository* repo, const git_oid& base_tree,
                                          const git_oid& candidate_tree) {
  GENTLE_ASSIGN_OR_RETURN(store::git::OdbPtr odb, store::git::RepositoryOdb(repo));
  GENTLE_ASSIGN_OR_RETURN(RawTree base, ReadRoot(odb.get(), base_tree));
  GENTLE_ASSIGN_OR_RETURN(RawTree candidate, ReadRoot(odb.get(), candidate_tree));
  git_odb* raw_odb = odb.get();
  auto changes = store::git::GitTreeDiff(
      [raw_odb](const git_oid& id) { return store::git::ReadTree(raw_odb, id); }, base, candidate);
  if (!changes.ok()) {
    return UnderRoots(changes.status(), OidHex(base_tree) + ".." + OidHex(candidate_tree));
  }
  return changes;
}

}  // namespace gentle::exporter
