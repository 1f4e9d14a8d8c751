#include "store/git/tree_builder.h"

#include "store/git/git_util.h"
#include "store/git/object_reader.h"

namespace gentle::store::git {
namespace {

Status WriteTreeObject(git_odb* odb, const git_oid& id, const std::string& data) {
  git_oid written;
  if (git_odb_write(&written, odb, data.data(), data.size(), GIT_OBJECT_TREE) != 0) {
    return Status(Code::kInternal, "cannot write tree: " + LastGitError());
  }
  if (!git_oid_equal(&written, &id)) {
    return Status(Code::kInternal,
                  "tree written as " + OidHex(written) + ", hashed as " + OidHex(id));
  }
  return Status::Ok();
}

}  // namespace

Result<git_oid> BuildTree(git_repository* repo, const TreeRows& rows, ObjectWrites writes,
                          const TreeIds* reachable, TreeObjects* made) {
  if (writes == ObjectWrites::kHashOnly) return HashTree(rows, made);
  OdbPtr odb;  // opened on the first write
  // Written through libgit2, which hashes again (collision-detecting SHA-1) and, for a tree that
  // already exists, freshens it instead, as git's write-tree does, so that a concurrent gc's
  // grace period starts again before the history ref makes it reachable.
  const TreeEmit write = [&](const git_oid& id, const std::string& data) -> Status {
    if (!odb) {
      GENTLE_ASSIGN_OR_RETURN(odb, RepositoryOdb(repo));
    }
    return WriteTreeObject(odb.get(), id, data);
  };
  return HashTree(rows, made, reachable, write);
}

}  // namespace gentle::store::git
