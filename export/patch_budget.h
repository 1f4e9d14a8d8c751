// PatchBudget: whether the pinned patch between two trees fits the export budget (4 MiB,
// export/derivation.h), decided the same way by every verb that must know (start and revise
// refuse such a candidate before writing; status names no action that would meet the refusal;
// export-context and verify refuse with the same details), and the refusal itself.
//
// The decision, cheapest first:
//   0. given a blob limit (start, revise and status's probe of what they would capture), a side
//      above it is refused from the headers alone (export/blob_limit.h);
//   1. an upper bound from the objects' headers (ChangeUpperBound, export/patch_bound.h: the sizes
//      and per-file overhead) at most the budget: it fits, and nothing but headers was read;
//   2. the lower bound the headers prove (ProvenLowerBound) above the budget: over, and that bound
//      is the size reported (at least);
//   3. otherwise the patch is measured: each section written in patch order on the calling
//      thread, counted and dropped (memory stays near the measuring limit: kMeasureLimitBytes,
//      or the budget when that is larger). The size reported is exact, unless one section alone
//      passes the measuring limit (it then counts as the larger of that limit + 1 and its header
//      bound) or the sections counted pass it; measuring stops there and the sum so far is
//      reported as a lower bound.
// Every step reads only the two trees' objects, in a fixed order, so a candidate gets the same
// answer and the same numbers on every run, whichever engine is asked to export it.
#ifndef GENTLE_EXPORT_PATCH_BUDGET_H_
#define GENTLE_EXPORT_PATCH_BUDGET_H_

#include <git2.h>

#include <cstdint>
#include <string>
#include <vector>

#include "export/blob_limit.h"
#include "export/tree_delta.h"
#include "store/status.h"

namespace gentle::exporter {

// Measuring stops once the sections counted pass this many bytes (4x the export budget), so an
// exact size is reported for any patch up to it.
inline constexpr uint64_t kMeasureLimitBytes = uint64_t{16} << 20;

struct PatchBudget {
  bool fits = true;
  uint64_t byte_size = 0;  // when !fits: the patch's size, exact or a proven lower bound
  bool exact = false;      // when !fits: whether byte_size is the exact size
};

// Objects the derivation cannot read are the writer's errors (objects_missing), as for an export.
// A side above `max_blob_bytes` is RefuseHugeBlob's error.
Result<PatchBudget> MeasurePatchBudget(git_repository* repo, const std::vector<TreeChange>& changes,
                                       size_t max_bytes, uint64_t max_blob_bytes = kNoBlobLimit);

// The same decision (steps 1 to 3) for a caller that already holds GatherFacts(odb, changes) and
// has refused huge blobs itself.
Result<PatchBudget> MeasurePatchBudget(git_repository* repo, git_odb* odb,
                                       const std::vector<TreeChange>& changes,
                                       std::vector<ChangeFacts> facts, size_t max_bytes);

// budget_exceeded (exit 9) naming the size and the budget, with details byte_size (decimal),
// byte_size_bound ("exact" or "at_least") and max_bytes (decimal).
Status BudgetRefusal(const PatchBudget& budget, size_t max_bytes);

// The trees' changes measured: Ok when the patch fits, else BudgetRefusal's status (or
// RefuseHugeBlob's, for a side above `max_blob_bytes`).
Status RefuseOverBudget(git_repository* repo, const std::string& base_tree,
                        const std::string& candidate_tree, size_t max_bytes,
                        uint64_t max_blob_bytes = kNoBlobLimit);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_PATCH_BUDGET_H_
