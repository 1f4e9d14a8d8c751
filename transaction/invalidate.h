// INVALIDATE: withdraw a lineage before any verdict (docs/lifecycle.md).
//
// Only from a pristine `reviewing` record (no verdict_history entry); anything else is
// `wrong_state`. The record stays in place, state `invalidated`, with invalidation_reason,
// invalidated_by and invalidated_at; it remains readable and exportable. A terminal state.
#ifndef GENTLE_TRANSACTION_INVALIDATE_H_
#define GENTLE_TRANSACTION_INVALIDATE_H_

#include <optional>
#include <string>

#include "store/review_state.h"
#include "store/status.h"

namespace gentle::transaction {

struct InvalidateRequest {
  std::string cwd = ".";
  std::string lineage;
  std::string reason;
  std::string actor;
  std::optional<std::string> expected_revision;
};

struct InvalidateResult {
  std::string lineage;
  std::string previous_revision;
  std::string revision;
  store::StateName state;
};

Result<InvalidateResult> Invalidate(const InvalidateRequest& request);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_INVALIDATE_H_
