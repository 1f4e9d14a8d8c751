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

#include "store/name_table.h"

namespace gentle::transaction {

enum class ApprovalOutcome { kApproval, kCoApproval, kRepeat };

inline constexpr store::NameTable kApprovalOutcomeNames = store::MakeNameTable<ApprovalOutcome>({
    {ApprovalOutcome::kApproval, "approval"},
    {ApprovalOutcome::kCoApproval, "co_approval"},
    {ApprovalOutcome::kRepeat, "repeat"},
});
inline constexpr const auto& kAllApprovalOutcomes = kApprovalOutcomeNames.values;

constexpr std::string_view ApprovalOutcomeName(ApprovalOutcome value) {
  return kApprovalOutcomeNames.Name(value);
}

// nullopt for any other text (case matters).
constexpr std::optional<ApprovalOutcome> ParseApprovalOutcome(std::string_view name) {
  return kApprovalOutcomeNames.Parse(name);
}

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_APPROVAL_OUTCOME_H_
