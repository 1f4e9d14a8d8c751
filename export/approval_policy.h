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
//   3. with `base_ref`: no address the signer's person is known by (export/signer_persons.h
//      Addresses) is, compared ASCII case-insensitively, the author or committer email of a
//      commit in `base_ref..head` (git rev-list's set), and, with `require_signed_commits`, the
//      signer's person signed no commit of that range; otherwise `self_approval`;
//   4. no earlier approval counted for the same person; otherwise `duplicate_principal` (the same
//      principal) or `same_person` (another principal of that person: `same_as` names the
//      approval that counted, `joined_by` the links of the allowed signers file that join them).
// The reasons of steps 2 to 4 are export/policy_skip.h's. Persons are the connected groups of the
// allowed signers file, joined further by every signature that verified (approvals and commits).
//
// The allowed signers are loaded once (export/allowed_signers_source.h: a path or REF:PATH).
// With `require_signed_commits` (needs `base_ref`), every commit of `base_ref..head` must carry an
// SSH signature that verifies for a principal of the file (export/approval_signature.h
// CheckCommitSignature, as git verify-commit checks it, its author email tried first); the first
// that does not is its `untrusted` refusal (details.commit, details.reason), before any approval
// is judged. Its signer's person is then an author of the change for step 3.
// A fetched history is untrusted input, so a co-approval counts only through its signature, like
// any other.
//
// CheckApprovalPolicy then refuses with `untrusted` (exit 10):
//   - with `require_signature`, an approving verdict commit that is missing (details.reason
//     `unsigned`), whose signature is refused (the refusal itself, as verify --require-signature
//     has always answered), or whose principal is not its actor (details.reason `actor_mismatch`,
//     details.actor and details.principal); a self-approval there is only not counted;
//   - fewer counted persons than `min_approvals` (details.reason `too_few_approvals`,
//     details.count and details.required; details.skipped lists `<commit>:<reason>` of each
//     approval not counted, comma-separated; details.same_person, when an approval was folded
//     into another's person, lists `<commit> with <commit> (<joined_by>)`, "; "-separated).
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
  std::string allowed_signers;          // git's allowed signers file: a path or REF:PATH
  bool require_signed_commits = false;  // with base_ref
  bool require_signature = false;
  int min_approvals = 1;
  std::optional<std::string> base_ref;  // exclude the authors of base_ref..head
  std::string head = "HEAD";            // the revision the change ends at (verify --against)
};

struct JudgedApproval {
  store::RoundApproval approval;
  std::string principal;   // the allowed signer the signature verified as ("" when it did not)
  std::string key;         // the signing key's fingerprint, when known
  std::string public_key;  // the signing key's wire-format blob, when the signature verified
  std::string person;      // the signer's person (SignerPersons::Name), when it verified
  // Why it does not count (neither when it counts): the signature's refusal (its details.reason,
  // export/approval_signature.h; "untrusted" when it names none), or a later step's skip.
  std::string refusal;
  std::optional<PolicySkip> skip;
  // For self_approval: the address found among the authors, or "signed commit <id>".
  std::string detail;
  // For same_person: the approval that counted for the person, and what joins the two.
  std::string same_as;
  std::vector<std::string> joined_by;
  bool counted() const { return refusal.empty() && !skip; }
  // The refusal, or the skip's name; "" when it counts.
  std::string reason() const;
};

// A commit of base_ref..head whose signature verified (require_signed_commits).
struct CommitSigner {
  std::string commit;
  std::string principal;
  std::string key;     // fingerprint, when known
  std::string person;  // SignerPersons::Name
};

struct ApprovalTally {
  std::vector<JudgedApproval> approvals;     // in history order
  std::vector<CommitSigner> commit_signers;  // with require_signed_commits, rev-list order
  // The refusal of the approving verdict commit's signature (ok when it verified or is absent).
  Status verdict_signature;
  size_t count() const;
};

// `tip`: the history that answered (nullopt: the lineage has none).
Result<ApprovalTally> TallyApprovals(const store::git::Repository& repo, const std::string& lineage,
                                     const std::optional<std::string>& tip,
                                     const std::string& revision, const ApprovalPolicy& policy);

// A same_person approval's joined_by, ", "-separated ("line 1, line 2").
std::string JoinedBy(const JudgedApproval& a);

Status CheckApprovalPolicy(const ApprovalTally& tally, const ApprovalPolicy& policy,
                           const std::string& lineage);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_APPROVAL_POLICY_H_
