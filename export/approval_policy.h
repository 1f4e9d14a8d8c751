// The approval policy CI applies to a lineage's approved round (docs/ci.md, "Approval policies"):
// who signed each approval, whether it counts, and whether enough count. Read-only.
//
// TallyApprovals judges every approval of `revision` in the history from `tip`
// (store/round_approvals.h: the approving verdict commit and the co-approvals after it), in
// history order. An approval counts when, in this order:
//   1. its history commit's SSH signature verifies for a principal of the allowed signers file
//      (export/approval_signature.h); otherwise it is skipped with that refusal's reason
//      (`unsigned`, `bad_signature`, `unknown_key`, ...);
//   2. that principal is the approval's recorded actor, exactly; otherwise `actor_mismatch`;
//   3. with `base_ref`: no address the principal is known by (export/allowed_signers.h
//      PrincipalEmails) is, compared ASCII case-insensitively, the author or committer email of a
//      commit in `base_ref..head` (git rev-list's set); otherwise `self_approval`;
//   4. no earlier approval counted for the same principal; otherwise `duplicate_principal`.
// The reasons of steps 2 to 4 are export/policy_skip.h's.
// A fetched history is untrusted input, so a co-approval counts only through its signature, like
// any other.
//
// CheckApprovalPolicy then refuses with `untrusted` (exit 10):
//   - with `require_signature`, an approving verdict commit that is missing (details.reason
//     `unsigned`), whose signature is refused (the refusal itself, as verify --require-signature
//     has always answered), or whose principal is not its actor (details.reason `actor_mismatch`,
//     details.actor and details.principal); a self-approval there is only not counted;
//   - fewer counted principals than `min_approvals` (details.reason `too_few_approvals`,
//     details.count and details.required; details.skipped lists `<commit>:<reason>` of each
//     approval not counted, comma-separated).
// Errors other than a refused signature (an unreadable allowed signers file: `usage`; a base_ref
// that does not resolve: `usage`; more than kMaxBaseRangeCommits commits in the range:
// `budget_exceeded`) are returned as they are.
#ifndef GENTLE_EXPORT_APPROVAL_POLICY_H_
#define GENTLE_EXPORT_APPROVAL_POLICY_H_

#include <optional>
#include <string>
#include <vector>

#include "export/policy_skip.h"
#include "store/git/repository.h"
#include "store/round_approvals.h"
#include "store/status.h"

namespace gentle::exporter {

// The most commits `base_ref..head` may hold: a change under review, not a history.
inline constexpr size_t kMaxBaseRangeCommits = 100000;

struct ApprovalPolicy {
  std::string allowed_signers;  // git's allowed signers file
  bool require_signature = false;
  int min_approvals = 1;
  std::optional<std::string> base_ref;  // exclude the authors of base_ref..head
  std::string head = "HEAD";            // the revision the change ends at (verify --against)
};

struct JudgedApproval {
  store::RoundApproval approval;
  std::string principal;  // the allowed signer the signature verified as ("" when it did not)
  std::string key;        // the signing key's fingerprint, when known
  // Why it does not count (neither when it counts): the signature's refusal (its details.reason,
  // export/approval_signature.h; "untrusted" when it names none), or a later step's skip.
  std::string refusal;
  std::optional<PolicySkip> skip;
  std::string detail;  // for self_approval: the address found among the authors
  bool counted() const { return refusal.empty() && !skip; }
  // The refusal, or the skip's name; "" when it counts.
  std::string reason() const;
};

struct ApprovalTally {
  std::vector<JudgedApproval> approvals;  // in history order
  // The refusal of the approving verdict commit's signature (ok when it verified or is absent).
  Status verdict_signature;
  size_t count() const;
};

// `tip`: the history that answered (nullopt: the lineage has none).
Result<ApprovalTally> TallyApprovals(const store::git::Repository& repo, const std::string& lineage,
                                     const std::optional<std::string>& tip,
                                     const std::string& revision, const ApprovalPolicy& policy);

Status CheckApprovalPolicy(const ApprovalTally& tally, const ApprovalPolicy& policy,
                           const std::string& lineage);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_APPROVAL_POLICY_H_
