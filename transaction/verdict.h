// VERDICT: a reviewer's decision on a lineage (docs/lifecycle.md).
//
// Verdicts and roles are closed sets, checked before anything is read (the role table
// (docs/lifecycle.md)): role `reviewer` gives the code verdicts APPROVE, REQUEST_CHANGES,
// NEEDS_DISCUSSION; role `docs-reviewer` the docs verdicts APPROVE, FIXED, NO_CHANGES. A word of
// neither set is `usage`; any other role, or a word of the other role's set, is `forbidden`. From
// `reviewing` or `correction_required`:
//   APPROVE          -> approved, with a one-time acknowledgement token (32 random bytes, hex)
//                       returned once and kept as gentle-ai keeps it (approved_ack_token)
//   REQUEST_CHANGES  -> correction_required
//   NEEDS_DISCUSSION -> escalated
//   FIXED, NO_CHANGES -> the state stays, and with it the record's bytes and revision; the
//                       history gets the verdict commit. They report the docs reviewer's work,
//                       not whether the change may land
// A body `review comment` could not render or `review parse-comment` could not read back
// (export/posted_comment.h CheckPostable: a heading, a verdict line or a marker of its own, a CR,
// NUL, invalid UTF-8, over 1 MiB) is `usage` naming the reason, before the store is locked.
// APPROVE of an `approved` record is a co-approval (transaction/co_approval.h): a history commit
// only, or nothing for an actor who already approved. Any other state is `wrong_state`.
// Without --actor (blank), --sign is required and the actor is the signing key's principal in
// git config gpg.ssh.allowedSignersFile (transaction/approval_signer.h SignerPrincipal). APPROVE in
// a round marked context-unavailable (transaction/round_context_binding.h) is `context_unavailable`
// (exit 6); so is APPROVE in a round bound to no context (neither --context nor
// --context-unavailable, or opened by another tool) when git config gentle-ai.requireContext is
// true (details: round, reason, config); a value that is not a boolean is `usage`. The other
// verdicts stand. The record holds only gentle-ai's CompactState members (store/compact_state.h);
// the verdict itself (body, actor, role, time, from and to state) is the history commit's
// verdicts/<round>.md, written before the record.
#ifndef GENTLE_TRANSACTION_VERDICT_H_
#define GENTLE_TRANSACTION_VERDICT_H_

#include <optional>
#include <string>

#include "store/review_state.h"
#include "store/status.h"
#include "store/verdict_name.h"
#include "transaction/approval_outcome.h"

namespace gentle::transaction {

struct VerdictRequest {
  std::string cwd = ".";
  std::string lineage;
  // As given on the command line: ValidateVerdictRequest refuses a word of neither table, so past
  // it (and in GiveVerdict) both value()s are set.
  store::VerdictWord verdict;
  std::string actor;  // blank: the signer's principal (--sign only)
  store::RoleWord role;
  std::string body;  // the text itself (the CLI reads --body-file)
  std::optional<std::string> expected_revision;
  // APPROVE only (`usage` otherwise): sign the approval's history commit as `git commit -S`
  // does (transaction/approval_signer.h). git config gentle-ai.signApprovals=true signs every
  // APPROVE without it. A signing failure refuses the verdict with nothing written.
  bool sign = false;
};

struct VerdictResult {
  std::string lineage;
  store::Verdict verdict = store::Verdict::kApprove;
  store::StateName previous_state;
  store::StateName state;
  std::string previous_revision;
  std::string revision;
  std::string body_sha256;
  std::string at;
  std::string token;             // APPROVE only; stored as gentle-ai stores it (approved_ack_token)
  bool signed_approval = false;  // the history commit carries an SSH signature
  std::string actor;             // as recorded: --actor trimmed, or the signer's principal
  // APPROVE only (transaction/approval_outcome.h): approved now, a co-approval, or a repeat with
  // nothing written. nullopt for the other verdicts.
  std::optional<ApprovalOutcome> approval;
};

// Checks the verdict, role and flags without touching the store.
Status ValidateVerdictRequest(const VerdictRequest& request);

Result<VerdictResult> GiveVerdict(const VerdictRequest& request);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_VERDICT_H_
