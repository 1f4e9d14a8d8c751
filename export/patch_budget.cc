#include "export/patch_budget.h"

#include <algorithm>
#include <utility>

#include "export/patch_bound.h"
#include "export/patch_engine.h"
#include "store/git/git_util.h"
#include "store/git/object_reader.h"

namespace gentle::exporter {
namespace {

// Step 3: every section written and counted, in patch order, each within the measuring limit
// (kMeasureLimitBytes, or max_bytes when that is larger, so that a lower bound is never taken for
// a fit).
Result<PatchBudget> Measure(git_repository* repo, const std::vector<TreeChange>& changes,
                            const std::vector<ChangeFacts>& facts, size_t max_bytes) {
  const uint64_t limit = std::max<uint64_t>(kMeasureLimitBytes, max_bytes);
  PatchBudget budget;
  budget.exact = true;
  uint64_t total = 0;
  std::string section;
  for (size_t i = 0; i < changes.size(); ++i) {
    section.clear();
    Status status = AppendChangeSection(repo, changes[i], facts[i], limit, &section);
    if (status.code() == Code::kBudgetExceeded) {
      // This section alone passes the measuring limit: it is at least one byte longer.
      const uint64_t over = std::max<uint64_t>(limit + 1, ChangeLowerBound(changes[i], facts[i]));
      total = SaturatingAdd(total, over);
      budget.exact = false;
      break;
    }
    GENTLE_RETURN_IF_ERROR(status);
    total += section.size();
    if (total > limit && i + 1 < changes.size()) {
      budget.exact = false;
      break;
    }
  }
  budget.fits = total <= max_bytes;
  budget.byte_size = total;
  return budget;
}

}  // namespace

Result<PatchBudget> MeasurePatchBudget(git_repository* repo, const std::vector<TreeChange>& changes,
                                       size_t max_bytes, uint64_t max_blob_bytes) {
  GENTLE_ASSIGN_OR_RETURN(store::git::OdbPtr odb, store::git::RepositoryOdb(repo));
  std::vector<ChangeFacts> facts = GatherFacts(odb.get(), changes);
  GENTLE_RETURN_IF_ERROR(RefuseHugeBlob(changes, facts, max_blob_bytes));
  return MeasurePatchBudget(repo, odb.get(), changes, std::move(facts), max_bytes);
}

Result<PatchBudget> MeasurePatchBudget(git_repository* repo, git_odb* odb,
                                       const std::vector<TreeChange>& changes,
                                       std::vector<ChangeFacts> facts, size_t max_bytes) {
  uint64_t upper = 0;
  for (size_t i = 0; i < changes.size() && upper <= max_bytes; ++i) {
    upper = SaturatingAdd(upper, ChangeUpperBound(changes[i], facts[i]));
  }
  if (upper <= max_bytes) return PatchBudget{};
  const uint64_t lower = ProvenLowerBound(odb, changes, max_bytes, &facts);
  if (lower > max_bytes) return PatchBudget{false, lower, false};
  return Measure(repo, changes, facts, max_bytes);
}

Status BudgetRefusal(const PatchBudget& budget, size_t max_bytes) {
  const std::string size = std::to_string(budget.byte_size);
  const std::string max = std::to_string(max_bytes);
  return Status(Code::kBudgetExceeded,
                "the frozen diff is " + std::string(budget.exact ? "" : "at least ") + size +
                    " bytes, over the budget of " + max + " bytes; nothing is truncated")
      .WithDetail(DetailKey::kByteSize, size)
      .WithDetail(DetailKey::kByteSizeBound, budget.exact ? "exact" : "at_least")
      .WithDetail(DetailKey::kMaxBytes, max);
}

Status RefuseOverBudget(git_repository* repo, const std::string& base_tree,
                        const std::string& candidate_tree, size_t max_bytes,
                        uint64_t max_blob_bytes) {
  GENTLE_ASSIGN_OR_RETURN(git_oid base, store::git::ParseOidHex(base_tree));
  GENTLE_ASSIGN_OR_RETURN(git_oid candidate, store::git::ParseOidHex(candidate_tree));
  GENTLE_ASSIGN_OR_RETURN(std::vector<TreeChange> changes, DiffTrees(repo, base, candidate));
  GENTLE_ASSIGN_OR_RETURN(PatchBudget budget,
                          MeasurePatchBudget(repo, changes, max_bytes, max_blob_bytes));
  if (budget.fits) return Status::Ok();
  return BudgetRefusal(budget, max_bytes);
}

}  // namespace gentle::exporter
