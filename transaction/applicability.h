// Applicability: how a lineage relates to the live target of the worktree a reader runs in
// (docs/lifecycle.md), one enum with one name table, and why an `unrelated` lineage is
// unrelated (the next action differs: a moved target can be revised, a foreign one cannot).
#ifndef GENTLE_TRANSACTION_APPLICABILITY_H_
#define GENTLE_TRANSACTION_APPLICABILITY_H_

#include <string_view>

namespace gentle::transaction {

enum class Applicability { kCurrentTarget, kAmbiguous, kUnrelated, kCorrupted, kIncomplete };

// "current_target", "ambiguous", "unrelated", "corrupted", "incomplete".
std::string_view ApplicabilityName(Applicability applicability);

// Why a lineage is `unrelated`; kNotUnrelated for every other applicability.
enum class UnrelatedReason {
  kNotUnrelated,
  kTargetMoved,    // the live target here differs from the lineage's current snapshot
  kOtherWorktree,  // the same candidate, captured in another worktree of the clone
  kNotComputable,  // the live target cannot be computed here (a revision is gone, a bare repo)
};

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_APPLICABILITY_H_
