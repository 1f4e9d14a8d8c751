#include "export/derivation.h"

#include <algorithm>
#include <memory>
#include <string_view>

#include "export/oracle_runner.h"
#include "export/patch_bound.h"
#include "export/patch_budget.h"
#include "store/digests.h"
#include "store/git/git_tree_diff.h"
#include "store/git/object_reader.h"
#include "store/git/repository.h"
#include "store/git/tree_rows.h"

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

// An engine's budget refusal stops wherever that engine noticed (a byte count that differs
// between engines and, with the parallel writer, between runs): the refusal given is the
// measured one (export/patch_budget.h), the same every time. Any other status passes through.
Status StableRefusal(git_repository* repo, const std::vector<TreeChange>& changes, size_t max_bytes,
                     Status status) {
  if (status.code() != Code::kBudgetExceeded) return status;
  auto budget = MeasurePatchBudget(repo, changes, max_bytes);
  if (!budget.ok()) return budget.status();
  if (budget->fits) {
    return Status(Code::kInternal,
                  "the engine refused a patch that the budget measures as fitting");
  }
  return BudgetRefusal(*budget, max_bytes);
}

// The snapshot's changes in patch order, with `derived`'s manifest set and checked against the
// snapshot's paths as `paths_check` says.
Result<std::vector<TreeChange>> CheckedChanges(const store::git::Repository& repo,
                                               const store::Snapshot& snapshot,
                                               PathsCheck paths_check, Derived* derived,
                                               std::vector<std::string>* sorted_paths) {
  // Only the subtrees that differ are read (as git diff does); a subtree shared by both trees
  // cannot contribute a changed path.
  GENTLE_ASSIGN_OR_RETURN(git_oid base_oid, ParseTreeId(snapshot.base_tree));
  GENTLE_ASSIGN_OR_RETURN(git_oid candidate_oid, ParseTreeId(snapshot.candidate_tree));
  GENTLE_ASSIGN_OR_RETURN(std::vector<TreeChange> changes,
                          DiffTrees(repo.raw(), base_oid, candidate_oid));
  // The walk's order is the patch's (git's); the manifest and the paths are in bytewise path
  // order, a path git reports twice (trees out of canonical order) keeping the walk's order.
  derived->manifest.reserve(changes.size());
  for (const TreeChange& c : changes) derived->manifest.push_back(ManifestEntryOf(c));
  auto by_path = [](const ManifestEntry& a, const ManifestEntry& b) { return a.path < b.path; };
  if (!std::is_sorted(derived->manifest.begin(), derived->manifest.end(), by_path)) {
    std::stable_sort(derived->manifest.begin(), derived->manifest.end(), by_path);
  }
  *sorted_paths = store::git::SortedPaths(changes);
  const std::vector<std::string>& paths = *sorted_paths;
  if (paths_check == PathsCheck::kListAndDigest && paths != snapshot.paths) {
    return Mismatch("the trees' changed paths do not reproduce the record's paths");
  }
  if (paths_check != PathsCheck::kNone && store::PathsDigest(paths) != snapshot.paths_digest) {
    return Mismatch("the trees' changed paths do not reproduce the record's paths_digest");
  }
  return changes;
}

}  // namespace

Result<Derived> DeriveContext(const store::git::Repository& repo, const store::Snapshot& snapshot,
                              Engine engine, PathsCheck paths_check, size_t max_bytes,
                              PatchSpool* spool) {
  Derived derived;
  std::vector<std::string> paths;
  GENTLE_ASSIGN_OR_RETURN(std::vector<TreeChange> changes,
                          CheckedChanges(repo, snapshot, paths_check, &derived, &paths));

  if (engine == Engine::kGit) {
    // The oracle's bytes are the engine's: the same sizes refuse it before git inflates anything.
    GENTLE_ASSIGN_OR_RETURN(store::git::OdbPtr odb, store::git::RepositoryOdb(repo.raw()));
    std::vector<ChangeFacts> facts = GatherFacts(odb.get(), changes);
    GENTLE_RETURN_IF_ERROR(
        StableRefusal(repo.raw(), changes, max_bytes,
                      RefuseIfProvablyOverBudget(odb.get(), changes, max_bytes, &facts)));
    auto oracle =
        RunOracleDiff(repo.common_dir(), snapshot.base_tree, snapshot.candidate_tree, max_bytes);
    if (!oracle.ok()) return StableRefusal(repo.raw(), changes, max_bytes, oracle.status());
    derived.patch = std::move(oracle).value();
    derived.engine = Engine::kGit;
    return derived;
  }
  PatchOptions options;
  options.max_bytes = max_bytes;
  options.spool = spool;
  auto written = WritePatch(repo.raw(), changes, options);
  if (!written.ok()) return StableRefusal(repo.raw(), changes, max_bytes, written.status());
  DerivedPatch patch = std::move(written).value();
  std::vector<std::string> engine_paths;
  engine_paths.reserve(patch.manifest.size());
  for (const ManifestEntry& e : patch.manifest) engine_paths.push_back(e.path);
  std::sort(engine_paths.begin(), engine_paths.end());
  if (engine_paths != paths) {
    return Mismatch("the patch engine's paths disagree with the trees' changed paths");
  }
  derived.patch = std::move(patch.bytes);
  derived.engine = patch.engine;
  return derived;
}

Result<Derived> DeriveInterdiff(const store::git::Repository& repo, const std::string& from_tree,
                                const std::string& to_tree, Engine engine, size_t max_bytes) {
  store::Snapshot pair;
  pair.base_tree = from_tree;
  pair.candidate_tree = to_tree;
  return DeriveContext(repo, pair, engine, PathsCheck::kNone, max_bytes);
}

Result<Derived> DeriveContextPart(const store::git::Repository& repo,
                                  const store::Snapshot& snapshot, PathsCheck paths_check,
                                  const PartRequest& request,
                                  const std::vector<std::string>& generated) {
  Derived derived;
  std::vector<std::string> paths;
  GENTLE_ASSIGN_OR_RETURN(std::vector<TreeChange> changes,
                          CheckedChanges(repo, snapshot, paths_check, &derived, &paths));
  GENTLE_ASSIGN_OR_RETURN(
      ViewPlan plan, PlanView(repo.raw(), changes, generated, request.view, request.max_bytes));
  if (request.part < 1 || request.part > plan.parts.size()) {
    return Status(Code::kUsage, "--part " + std::to_string(request.part) + " is not a part: the " +
                                    std::string(ViewName(request.view)) + " view has " +
                                    std::to_string(plan.parts.size()) + " part" +
                                    (plan.parts.size() == 1 ? "" : "s"))
        .WithDetail(DetailKey::kCount, std::to_string(plan.parts.size()));
  }
  const ViewPart& part = plan.parts[request.part - 1];
  DerivedPart out;
  out.view = request.view;
  out.max_bytes = request.max_bytes;
  out.part = request.part;
  out.parts = plan.parts.size();
  for (size_t i = part.first; i < part.first + part.count; ++i) {
    out.paths.push_back(plan.entries[i].path);
    if (plan.entries[i].summarised) out.summarised_paths.push_back(plan.entries[i].path);
  }
  if (part.bytes > kMaxContextBytes) {
    // A single entry of the full view above the part size, or a view not split (no --max-bytes):
    // it stays derivable (verify binds the whole diff) but no output carries more than the
    // export budget.
    const std::string size = std::to_string(part.bytes);
    const std::string max = std::to_string(kMaxContextBytes);
    const bool one = part.count == 1;
    Status over(Code::kBudgetExceeded,
                "part " + std::to_string(request.part) +
                    (one ? " (" + out.paths.front() + ")" : std::string()) + " is " + size +
                    " bytes, over the export budget of " + max + " bytes; nothing is truncated" +
                    (request.max_bytes == kNoPartLimit ? " (split it with --max-bytes)" : ""));
    over.WithDetail(DetailKey::kByteSize, size)
        .WithDetail(DetailKey::kByteSizeBound, "exact")
        .WithDetail(DetailKey::kMaxBytes, max);
    if (one) over.WithDetail(DetailKey::kPath, out.paths.front());
    return over;
  }
  derived.patch.reserve(static_cast<size_t>(part.bytes));
  GENTLE_RETURN_IF_ERROR(
      AppendViewPart(repo.raw(), changes, plan, request.part - 1, &derived.patch));
  derived.engine = Engine::kNative;
  derived.part = std::move(out);
  return derived;
}

Result<Derived> DeriveInterdiffPart(const store::git::Repository& repo,
                                    const std::string& from_tree, const std::string& to_tree,
                                    const PartRequest& request,
                                    const std::vector<std::string>& generated) {
  store::Snapshot pair;
  pair.base_tree = from_tree;
  pair.candidate_tree = to_tree;
  return DeriveContextPart(repo, pair, PathsCheck::kNone, request, generated);
}

}  // namespace gentle::exporter
