// ImportOutcome: what `review import` did (docs/format.md, transaction/import.h), one enum with
// one name table (header-only): `imported` (the local history moved forward to the fetched tip)
// or `up_to_date` (the local tip is the fetched tip or descends from it: nothing written). The
// import answer's `outcome` member is the name; code compares the enum, never the text.
#ifndef GENTLE_TRANSACTION_IMPORT_OUTCOME_H_
#define GENTLE_TRANSACTION_IMPORT_OUTCOME_H_

#include <optional>
#include <string_view>

#include "store/name_table.h"

namespace gentle::transaction {

enum class ImportOutcome { kImported, kUpToDate };

inline constexpr store::NameTable kImportOutcomeNames = store::MakeNameTable<ImportOutcome>({
    {ImportOutcome::kImported, "imported"},
    {ImportOutcome::kUpToDate, "up_to_date"},
});
inline constexpr const auto& kAllImportOutcomes = kImportOutcomeNames.values;

constexpr std::string_view ImportOutcomeName(ImportOutcome value) {
  return kImportOutcomeNames.Name(value);
}

// nullopt for any other text (case matters).
constexpr std::optional<ImportOutcome> ParseImportOutcome(std::string_view name) {
  return kImportOutcomeNames.Parse(name);
}

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_IMPORT_OUTCOME_H_
