#include "export/derivation.h"

#include <algorithm>
#include <memory>
#include <string_view>

#include "export/oracle_runner.h"
#include "store/digests.h"
#include "store/repository.h"
#include "store/tree_rows.h"

namespace gentle::exporter {
namespace {

Result<git_oid> ParseTreeId(const std::string& hex) {
  git_oid oid;
  if (git_oid_fromstr(&oid, hex.c_str()) != 0) {
    return Status(Code::kCorrupted, "malformed tree id " + hex);
  }
  return oid;
}

Status Mismatch(const std::string& what) { return Status(Code::kIntegrityMismatch, what); }

}  // namespace

Result<Derived> DeriveContext(const store::Repository& repo, const store::Snapshot& snapshot,
                              const std::string& engine, PathsCheck paths_check, size_t max_bytes) {
  // Only the subtrees that differ are read (as git diff does); a subtree shared by both trees
  // cannot contribute a changed path.
  GENTLE_ASSIGN_OR_RETURN(git_oid base_oid, ParseTreeId(snapshot.base_tree));
  GENTLE_ASSIGN_OR_RETURN(git_oid candidate_oid, ParseTreeId(snapshot.candidate_tree));
  bool canonical_order = true;
  GENTLE_ASSIGN_OR_RETURN(std::vector<TreeChange> changes,
                          DiffTrees(repo.raw(), base_oid, candidate_oid, &canonical_order));
  Derived derived;
  for (const TreeChange& c : changes) derived.manifest.push_back(ManifestEntryOf(c));
  std::vector<std::string> paths;
  for (const ManifestEntry& e : derived.manifest) paths.push_back(e.path);
  if (paths_check == PathsCheck::kListAndDigest && paths != snapshot.paths) {
    return Mismatch("the trees' changed paths do not reproduce the record's paths");
  }
  if (store::PathsDigest(paths) != snapshot.paths_digest) {
    return Mismatch("the trees' changed paths do not reproduce the record's paths_digest");
  }

  // git walks a tree that is not in its canonical order (git fsck: broken; only
  // `hash-object --literally` writes one) as stored, and no documented rule gives its section
  // order: the pinned git CLI writes that patch, after the blobs are checked here.
  if (engine == "git" || !canonical_order) {
    if (engine != "git") GENTLE_RETURN_IF_ERROR(CheckBlobs(repo.raw(), changes));
    GENTLE_ASSIGN_OR_RETURN(derived.patch, RunOracleDiff(repo.common_dir(), snapshot.base_tree,
                                                         snapshot.candidate_tree, max_bytes));
    derived.engine = "git";
    return derived;
  }
  PatchOptions options;
  options.max_bytes = max_bytes;
  GENTLE_ASSIGN_OR_RETURN(DerivedPatch patch, WritePatch(repo.raw(), changes, options));
  std::vector<std::string> engine_paths;
  for (const ManifestEntry& e : patch.manifest) engine_paths.push_back(e.path);
  std::sort(engine_paths.begin(), engine_paths.end());
  engine_paths.erase(std::unique(engine_paths.begin(), engine_paths.end()), engine_paths.end());
  if (engine_paths != paths) {
    return Mismatch("the patch engine's paths disagree with the trees' changed paths");
  }
  derived.patch = std::move(patch.bytes);
  derived.engine = std::move(patch.engine);
  return derived;
}

}  // namespace gentle::exporter
