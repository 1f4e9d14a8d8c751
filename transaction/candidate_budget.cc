#include "transaction/candidate_budget.h"

#include "export/blob_limit.h"
#include "export/derivation.h"
#include "export/patch_budget.h"
#include "store/test_hooks.h"

namespace gentle::transaction {

Status RefuseOversizeCandidate(const store::git::Repository& repo,
                               const store::Snapshot& snapshot) {
  if (store::AdmitOversizeCandidates()) return Status::Ok();
  return exporter::RefuseOverBudget(repo.raw(), snapshot.base_tree, snapshot.candidate_tree,
                                    exporter::kMaxContextBytes, exporter::kMaxBlobBytes);
}

}  // namespace gentle::transaction
