// AbandonReason: why `review abandon` retires a lineage (docs/lifecycle.md "review abandon"), one
// enum with one name table (header-only): `operator_disposition` (an operator decided) or
// `retired_schema` (the record's schema is retired). The --reason flag and the audit record's
// `reason` member hold the names, so they are a stored format; code compares the enum, never
// the text. `review reclaim` takes any reason and does not use this.
#ifndef GENTLE_TRANSACTION_ABANDON_REASON_H_
#define GENTLE_TRANSACTION_ABANDON_REASON_H_

#include <optional>
#include <string_view>

#include "store/name_table.h"

namespace gentle::transaction {

enum class AbandonReason { kOperatorDisposition, kRetiredSchema };

inline constexpr store::NameTable kAbandonReasonNames = store::MakeNameTable<AbandonReason>({
    {AbandonReason::kOperatorDisposition, "operator_disposition"},
    {AbandonReason::kRetiredSchema, "retired_schema"},
});
inline constexpr const auto& kAllAbandonReasons = kAbandonReasonNames.values;

constexpr std::string_view AbandonReasonName(AbandonReason value) {
  return kAbandonReasonNames.Name(value);
}

// nullopt for any other text (case and surrounding blanks matter).
constexpr std::optional<AbandonReason> ParseAbandonReason(std::string_view name) {
  return kAbandonReasonNames.Parse(name);
}

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_ABANDON_REASON_H_
