#include "transaction/candidate_budget.h"

#include <set>

#include "export/derivation.h"
#include "export/patch_bound.h"
#include "export/patch_budget.h"
#include "export/tree_delta.h"
#include "export/view_plan.h"
#include "store/git/git_util.h"
#include "store/git/object_reader.h"
#include "store/test_hooks.h"

namespace gentle::transaction {
namespace {

// The whole diff, which verify and attest bind, at most kMaxBoundDiffBytes (export/derivation.h),
// decided as export/patch_budget.h decides a budget: the headers' upper bound first.
Status RefuseUnboundDiff(git_repository* repo, git_odb* odb,
                         const std::vector<exporter::TreeChange>& changes,
                         const std::vector<exporter::ChangeFacts>& facts) {
  GENTLE_ASSIGN_OR_RETURN(
      exporter::PatchBudget whole,
      exporter::MeasurePatchBudget(repo, odb, changes, facts, exporter::kMaxBoundDiffBytes));
  if (whole.fits) return Status::Ok();
  return exporter::BudgetRefusal(whole, exporter::kMaxBoundDiffBytes);
}

}  // namespace

Result<uint64_t> ReviewViewParts(git_repository* repo, const std::string& base_tree,
                                 const std::string& candidate_tree,
                                 const std::vector<std::string>& generated, uint64_t budget,
                                 uint64_t max_blob_bytes) {
  GENTLE_ASSIGN_OR_RETURN(git_oid base, store::git::ParseOidHex(base_tree));
  GENTLE_ASSIGN_OR_RETURN(git_oid candidate, store::git::ParseOidHex(candidate_tree));
  GENTLE_ASSIGN_OR_RETURN(std::vector<exporter::TreeChange> changes,
                          exporter::DiffTrees(repo, base, candidate));
  GENTLE_ASSIGN_OR_RETURN(store::git::OdbPtr odb, store::git::RepositoryOdb(repo));
  const std::vector<exporter::ChangeFacts> facts = exporter::GatherFacts(odb.get(), changes);
  GENTLE_RETURN_IF_ERROR(exporter::RefuseHugeBlob(changes, facts, max_blob_bytes));
  const std::set<std::string> marked(generated.begin(), generated.end());
  uint64_t upper = 0;
  for (size_t i = 0; i < changes.size() && upper <= budget; ++i) {
    upper = exporter::SaturatingAdd(upper, exporter::ChangeUpperBound(changes[i], facts[i]));
    if (marked.count(changes[i].path) != 0) {
      upper = exporter::SaturatingAdd(upper, kMaxSummaryLineBytes);
    }
  }
  GENTLE_RETURN_IF_ERROR(RefuseUnboundDiff(repo, odb.get(), changes, facts));
  if (upper <= budget) return uint64_t{1};
  GENTLE_ASSIGN_OR_RETURN(
      exporter::ViewPlan plan,
      exporter::PlanView(repo, changes, generated, exporter::View::kReview, budget));
  return static_cast<uint64_t>(plan.parts.size());
}

Status RefuseUnsplittableCandidate(const store::git::Repository& repo,
                                   const store::Snapshot& snapshot,
                                   const std::vector<std::string>& generated, uint64_t budget) {
  if (store::AdmitOversizeCandidates()) return Status::Ok();
  return ReviewViewParts(repo.raw(), snapshot.base_tree, snapshot.candidate_tree, generated, budget,
                         exporter::kMaxBlobBytes)
      .status();
}

}  // namespace gentle::transaction
