// CandidateBudget: how many parts the reviewer's view of a candidate takes under a budget, and
// the refusal of one that no split can carry (docs/lifecycle.md, "Start and revise refuse what
// could never be exported"). start and revise refuse, before writing anything, only a candidate
// with a changed entry that is not generated and whose section alone is above the round's budget:
// a generated entry is shown as a summary, and the review view is split at entry boundaries into
// parts of at most the budget (export/view_plan.h), so any other candidate can be read whole.
// status asks the same question of a round (the number of parts its next export takes) and of a
// candidate start or revise would capture, so that next never names a verb that meets the refusal.
//
// The decision, cheapest first, reading only the two trees' objects in a fixed order:
//   0. given a blob limit (start, revise and status's probe of what they would capture), a side
//      above it is refused from the headers alone (export/blob_limit.h);
//   0b. the whole diff, which verify and attest bind exactly, must be at most kMaxBoundDiffBytes
//      (export/derivation.h; 64 MiB): the headers' upper bound proves most changes under it,
//      otherwise it is measured (export/patch_budget.h) and a larger one is budget_exceeded
//      with max_bytes 67108864, so no lineage is started that no verify could bind;
//   1. an upper bound on the review view from the headers (each entry's export/patch_bound.h
//      ChangeUpperBound, plus kMaxSummaryLineBytes for a generated one, whose summary is its
//      header lines and one line: export/entry_summary.h) at most the budget: one part, and
//      nothing but headers was read (a small change pays that);
//   2. otherwise export/view_plan.h PlanView of the review view under the budget, entry by entry:
//      its parts, or its budget_exceeded naming the first entry that is not generated and above
//      the budget (details path, byte_size, byte_size_bound, max_bytes): the refusal
//      `export-context --view review --max-bytes <budget>` gives, so the two always agree.
// The caller of a capture holds its object writes in memory (store/git/memory_writes.h), so that
// the refusal leaves the object database as it was.
#ifndef GENTLE_TRANSACTION_CANDIDATE_BUDGET_H_
#define GENTLE_TRANSACTION_CANDIDATE_BUDGET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "export/blob_limit.h"
#include "store/git/repository.h"
#include "store/snapshot.h"
#include "store/status.h"

namespace gentle::transaction {

// The longest summary line export/entry_summary.h writes: four counts of at most 20 digits.
inline constexpr uint64_t kMaxSummaryLineBytes = 128;

// The number of parts of the review view of the patch between two trees (hex ids) under
// `budget`, with the round's generated paths `generated` (any order).
Result<uint64_t> ReviewViewParts(git_repository* repo, const std::string& base_tree,
                                 const std::string& candidate_tree,
                                 const std::vector<std::string>& generated, uint64_t budget,
                                 uint64_t max_blob_bytes = exporter::kNoBlobLimit);

// Ok when the snapshot's review view under `budget` can be split (ReviewViewParts with the blob
// limit of export/blob_limit.h); its refusal otherwise.
Status RefuseUnsplittableCandidate(const store::git::Repository& repo,
                                   const store::Snapshot& snapshot,
                                   const std::vector<std::string>& generated, uint64_t budget);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_CANDIDATE_BUDGET_H_
