// VERDICT: a reviewer's decision on a lineage (DESIGN.md section 6).
//
// Verdicts and roles are closed sets, checked before anything is read: APPROVE, REQUEST_CHANGES,
// NEEDS_DISCUSSION exactly (anything else is `usage`); role `reviewer` only (anything else is
// `forbidden`). From `reviewing` or `correction_required`:
//   APPROVE          -> approved, with a one-time acknowledgement token (32 random bytes, hex)
//                       returned once; the record keeps only approved_ack_token_sha256
//   REQUEST_CHANGES  -> correction_required
//   NEEDS_DISCUSSION -> escalated
// Any other state is `wrong_state`. The entry {verdict, actor, role, body_sha256, at, from_state,
// to_state} is appended to the record's `verdict_history`; every other member is kept as read.
#ifndef GENTLE_TRANSACTION_VERDICT_H_
#define GENTLE_TRANSACTION_VERDICT_H_

#include <optional>
#include <string>

#include "store/status.h"

namespace gentle::transaction {

struct VerdictRequest {
  std::string cwd = ".";
  std::string lineage;
  std::string verdict;
  std::string actor;
  std::string role;
  std::string body;  // the text itself (the CLI reads --body-file)
  std::optional<std::string> expected_revision;
};

struct VerdictResult {
  std::string lineage;
  std::string verdict;
  std::string previous_state;
  std::string state;
  std::string previous_revision;
  std::string revision;
  std::string body_sha256;
  std::string at;
  std::string token;  // APPROVE only; shown once, never stored
};

// Checks the verdict, role and flags without touching the store.
Status ValidateVerdictRequest(const VerdictRequest& request);

Result<VerdictResult> GiveVerdict(const VerdictRequest& request);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_VERDICT_H_
