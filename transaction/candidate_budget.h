// CandidateBudget: start and revise refuse a candidate whose frozen diff could never be exported
// (docs/lifecycle.md, "Start and revise refuse what could never be exported"), with the
// refusal export-context would give it (export/patch_budget.h: budget_exceeded, exit 9, details
// byte_size, byte_size_bound and max_bytes, the same on every run and for every engine). A small
// change pays a few object header reads. The caller captures with its object writes held in
// memory (store/git/memory_writes.h), so that the refusal leaves the object database as it was.
#ifndef GENTLE_TRANSACTION_CANDIDATE_BUDGET_H_
#define GENTLE_TRANSACTION_CANDIDATE_BUDGET_H_

#include "store/git/repository.h"
#include "store/snapshot.h"
#include "store/status.h"

namespace gentle::transaction {

// Ok when the patch between the snapshot's trees fits the export budget.
Status RefuseOversizeCandidate(const store::git::Repository& repo, const store::Snapshot& snapshot);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_CANDIDATE_BUDGET_H_
