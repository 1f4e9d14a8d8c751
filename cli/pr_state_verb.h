// PrStateVerb: the verbs of `review pr-state` (docs/watch.md "PR state"), one enum with one name
// table (header-only): `show` (read-only) and `set`. The command table defines one subcommand per
// name; code compares the enum, never the text.
#ifndef GENTLE_CLI_PR_STATE_VERB_H_
#define GENTLE_CLI_PR_STATE_VERB_H_

#include <optional>
#include <string_view>

#include "store/name_table.h"

namespace gentle::cli {

enum class PrStateVerb { kShow, kSet };

inline constexpr store::NameTable kPrStateVerbNames = store::MakeNameTable<PrStateVerb>({
    {PrStateVerb::kShow, "show"},
    {PrStateVerb::kSet, "set"},
});
inline constexpr const auto& kAllPrStateVerbs = kPrStateVerbNames.values;

constexpr std::string_view PrStateVerbName(PrStateVerb value) {
  return kPrStateVerbNames.Name(value);
}

// nullopt for any other text (case matters).
constexpr std::optional<PrStateVerb> ParsePrStateVerb(std::string_view name) {
  return kPrStateVerbNames.Parse(name);
}

}  // namespace gentle::cli

#endif  // GENTLE_CLI_PR_STATE_VERB_H_
