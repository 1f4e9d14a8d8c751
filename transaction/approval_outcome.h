// ApprovalOutcome: what a `verdict APPROVE` did (docs/lifecycle.md "review verdict"), one enum with
// one name table (header-only): `approval` (the round is approved now), `co_approval` (a further
// approval of an approved round, transaction/co_approval.h) or `repeat` (this actor already
// approved the round: nothing written). The verdict answer's `approval` member is the name (null
// for the other verdicts); code compares the enum, never the text. Not store::ApprovalKind: that
// names the commits an approved round's history holds (`verdict`, `co_approval`), and a repeat is
// none.
#ifndef GENTLE_TRANSACTION_APPROVAL_OUTCOME_H_
#define GENTLE_TRANSACTION_APPROVAL_OUTCOME_H_

#include <optional>
#include <string_view>

namespace gentle::transaction {

enum class ApprovalOutcome { kApproval, kCoApproval, kRepeat };

inline constexpr ApprovalOutcome kAllApprovalOutcomes[] = {
    ApprovalOutcome::kApproval, ApprovalOutcome::kCoApproval, ApprovalOutcome::kRepeat};

constexpr std::string_view ApprovalOutcomeName(ApprovalOutcome outcome) {
  switch (outcome) {
    case ApprovalOutcome::kApproval:
      return "approval";
    case ApprovalOutcome::kCoApproval:
      return "co_approval";
    case ApprovalOutcome::kRepeat:
      return "repeat";
  }
  return "";
}

// nullopt for any other text (case matters).
constexpr std::optional<ApprovalOutcome> ParseApprovalOutcome(std::string_view name) {
  for (ApprovalOutcome outcome : kAllApprovalOutcomes) {
    if (ApprovalOutcomeName(outcome) == name) return outcome;
  }
  return std::nullopt;
}

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_APPROVAL_OUTCOME_H_
