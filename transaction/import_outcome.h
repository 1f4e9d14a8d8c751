// ImportOutcome: what `review import` did (docs/format.md, transaction/import.h), one enum with
// one name table (header-only): `imported` (the local history moved forward to the fetched tip)
// or `up_to_date` (the local tip is the fetched tip or descends from it: nothing written). The
// import answer's `outcome` member is the name; code compares the enum, never the text.
#ifndef GENTLE_TRANSACTION_IMPORT_OUTCOME_H_
#define GENTLE_TRANSACTION_IMPORT_OUTCOME_H_

#include <optional>
#include <string_view>

namespace gentle::transaction {

enum class ImportOutcome { kImported, kUpToDate };

inline constexpr ImportOutcome kAllImportOutcomes[] = {ImportOutcome::kImported,
                                                       ImportOutcome::kUpToDate};

constexpr std::string_view ImportOutcomeName(ImportOutcome outcome) {
  return outcome == ImportOutcome::kUpToDate ? "up_to_date" : "imported";
}

// nullopt for any other text (case matters).
constexpr std::optional<ImportOutcome> ParseImportOutcome(std::string_view name) {
  for (ImportOutcome outcome : kAllImportOutcomes) {
    if (ImportOutcomeName(outcome) == name) return outcome;
  }
  return std::nullopt;
}

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_IMPORT_OUTCOME_H_
