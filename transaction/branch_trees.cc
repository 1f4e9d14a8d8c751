#include "transaction/branch_trees.h"

#include <git2.h>

#include "store/git/git_util.h"

namespace gentle::transaction {

namespace {
using RevwalkPtr = store::git::GitPtr<git_revwalk, git_revwalk_free>;
using CommitPtr = store::git::GitPtr<git_commit, git_commit_free>;
}  // namespace

std::set<std::string> BranchTrees(const store::git::Repository& repo, size_t limit) {
  std::set<std::string> trees;
  git_revwalk* raw = nullptr;
  if (git_revwalk_new(&raw, repo.raw()) != 0) return trees;
  RevwalkPtr walk(raw);
  git_revwalk_simplify_first_parent(walk.get());
  if (git_revwalk_push_head(walk.get()) != 0) return trees;
  git_oid id;
  for (size_t walked = 0; walked < limit && git_revwalk_next(&id, walk.get()) == 0; ++walked) {
    git_commit* commit = nullptr;
    if (git_commit_lookup(&commit, repo.raw(), &id) != 0) break;
    CommitPtr owned(commit);
    trees.insert(store::git::OidHex(*git_commit_tree_id(commit)));
  }
  return trees;
}

}  // namespace gentle::transaction
