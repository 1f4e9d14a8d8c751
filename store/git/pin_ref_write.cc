#include "store/git/pin_ref_write.h"

#include "store/file_io.h"
#include "store/git/git_util.h"
#include "store/git/object_reader.h"
#include "store/layout.h"

namespace gentle::store::git {
namespace {

Result<git_oid> PinCommit(git_repository* repo, const std::string& lineage, const git_oid& base,
                          const git_oid& candidate) {
  std::string tree_data;
  auto append = [&](const char* name, const git_oid& oid) {
    tree_data += "40000 ";
    tree_data += name;
    tree_data.push_back('\0');
    tree_data.append(reinterpret_cast<const char*>(oid.id), GIT_OID_RAWSZ);
  };
  append("base", base);  // "base" < "candidate": git tree order
  append("candidate", candidate);
  GENTLE_ASSIGN_OR_RETURN(OdbPtr odb, RepositoryOdb(repo));
  git_oid tree;
  int rc = git_odb_write(&tree, odb.get(), tree_data.data(), tree_data.size(), GIT_OBJECT_TREE);
  std::string commit = "tree " + OidHex(tree) +
                       "\nauthor gentle-ai <gentle-ai@invalid> 0 +0000"
                       "\ncommitter gentle-ai <gentle-ai@invalid> 0 +0000"
                       "\n\ngentle-ai review pin\n\nlineage: " +
                       lineage + "\n";
  git_oid commit_id;
  if (rc == 0) {
    rc = git_odb_write(&commit_id, odb.get(), commit.data(), commit.size(), GIT_OBJECT_COMMIT);
  }
  if (rc != 0) return Status(Code::kInternal, "cannot write pin objects: " + LastGitError());
  return commit_id;
}

// The answer when libgit2 finds a ref's lock taken: `busy`, naming the lock file. Git never
// breaks a ref lock by itself (the holder may be a running git command), and neither does this
// store: a lock left by a killed process stays until someone removes it, and until then every
// write of that ref answers this, never `internal`.
Status RefLocked(const Repository& repo, const std::string& name) {
  std::string lock = repo.common_dir() + "/" + name + ".lock";
  if (KindOf(lock) == PathKind::kMissing) {
    const std::string packed = repo.common_dir() + "/packed-refs.lock";
    if (KindOf(packed) != PathKind::kMissing) lock = packed;
  }
  return Status(Code::kBusy, name + " is locked by " + lock +
                                 ": a git command holds it, or one was stopped while holding it "
                                 "(remove the file if no git command is running)")
      .WithDetail("lock", lock);
}

}  // namespace

Status WritePinRef(const Repository& repo, const std::string& lineage, const std::string& base_tree,
                   const std::string& candidate_tree) {
  git_oid base, candidate;
  if (git_oid_fromstr(&base, base_tree.c_str()) != 0 ||
      git_oid_fromstr(&candidate, candidate_tree.c_str()) != 0) {
    return Status(Code::kInternal, "malformed tree id for pin");
  }
  GENTLE_ASSIGN_OR_RETURN(git_oid commit, PinCommit(repo.raw(), lineage, base, candidate));
  git_reference* ref = nullptr;
  const std::string name = StoreLayout::PinRef(lineage);
  const int rc =
      git_reference_create(&ref, repo.raw(), name.c_str(), &commit, 1, "gentle-ai review pin");
  if (rc == GIT_ELOCKED) return RefLocked(repo, name);
  if (rc != 0) return Status(Code::kInternal, "cannot write " + name + ": " + LastGitError());
  git_reference_free(ref);
  return Status::Ok();
}

Status DeletePinRef(const Repository& repo, const std::string& lineage) {
  const std::string name = StoreLayout::PinRef(lineage);
  git_reference* ref = nullptr;
  if (git_reference_lookup(&ref, repo.raw(), name.c_str()) != 0) return Status::Ok();
  int rc = git_reference_delete(ref);
  git_reference_free(ref);
  if (rc == GIT_ELOCKED) return RefLocked(repo, name);
  if (rc != 0) return Status(Code::kInternal, "cannot delete " + name + ": " + LastGitError());
  return Status::Ok();
}

Status DeletePinRefUnlessLocked(const Repository& repo, const std::string& lineage) {
  Status deleted = DeletePinRef(repo, lineage);
  if (deleted.code() == Code::kBusy) return Status::Ok();
  return deleted;
}

}  // namespace gentle::store::git
