// The approvals of an approved round, read from a lineage's history (docs/format.md,
// "Co-approvals"): the `verdict` commit that approved the round and every `co-approve` commit
// after it, each with the actor and role its verdict file names.
//
// RoundApprovals walks from `tip` by first parent through the commits whose Revision trailer is
// `revision` (at most kMaxRoundCommits; a burn, a sync of that record and the co-approvals pass),
// and returns, oldest first:
//   - the newest `verdict` commit whose State trailer is `approved` and whose review-state.json
//     verifies as an approved record of `lineage` with revision `revision`; its actor and role
//     from verdicts/<round>.md (kind kVerdict);
//   - every `co-approve` commit above it (or, with no such verdict commit: a record approved by
//     another tool and synced, every co-approve commit of the revision); actor and role from its
//     co-approval.md (kind kCoApproval).
// A verdict file that does not parse, or is not an APPROVE, is `corrupted`. Nothing is trusted
// here: who signed a commit is the caller's question (export/approval_signature.h). Read-only.
#ifndef GENTLE_STORE_ROUND_APPROVALS_H_
#define GENTLE_STORE_ROUND_APPROVALS_H_

#include <string>
#include <string_view>
#include <vector>

#include "store/git/repository.h"
#include "store/status.h"
#include "store/verdict_name.h"

namespace gentle::store {

// A history with more commits of one revision than this is not one this tool wrote.
inline constexpr int kMaxRoundCommits = 1000;

enum class ApprovalKind { kVerdict, kCoApproval };

// "verdict", "co_approval".
std::string_view ApprovalKindName(ApprovalKind kind);

struct RoundApproval {
  ApprovalKind kind = ApprovalKind::kVerdict;
  std::string commit;  // hex
  std::string actor, at;
  RoleWord role;  // as its verdict file names it
};

Result<std::vector<RoundApproval>> RoundApprovals(const git::Repository& repo,
                                                  const std::string& lineage,
                                                  const std::string& tip,
                                                  const std::string& revision);

}  // namespace gentle::store

#endif  // GENTLE_STORE_ROUND_APPROVALS_H_
