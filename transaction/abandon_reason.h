// AbandonReason: why `review abandon` retires a lineage (docs/lifecycle.md "review abandon"), one
// enum with one name table (header-only): `operator_disposition` (an operator decided) or
// `retired_schema` (the record's schema is retired). The --reason flag and the audit record's
// `reason` member hold the names, so they are a stored format; code compares the enum, never
// the text. `review reclaim` takes any reason and does not use this.
#ifndef GENTLE_TRANSACTION_ABANDON_REASON_H_
#define GENTLE_TRANSACTION_ABANDON_REASON_H_

#include <optional>
#include <string_view>

namespace gentle::transaction {

enum class AbandonReason { kOperatorDisposition, kRetiredSchema };

inline constexpr AbandonReason kAllAbandonReasons[] = {AbandonReason::kOperatorDisposition,
                                                       AbandonReason::kRetiredSchema};

constexpr std::string_view AbandonReasonName(AbandonReason reason) {
  return reason == AbandonReason::kRetiredSchema ? "retired_schema" : "operator_disposition";
}

// nullopt for any other text (case and surrounding blanks matter).
constexpr std::optional<AbandonReason> ParseAbandonReason(std::string_view name) {
  for (AbandonReason reason : kAllAbandonReasons) {
    if (AbandonReasonName(reason) == name) return reason;
  }
  return std::nullopt;
}

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_ABANDON_REASON_H_
