// PrStateVerb: the verbs of `review pr-state` (docs/watch.md "PR state"), one enum with one name
// table (header-only): `show` (read-only) and `set`. The command table defines one subcommand per
// name; code compares the enum, never the text.
#ifndef GENTLE_CLI_PR_STATE_VERB_H_
#define GENTLE_CLI_PR_STATE_VERB_H_

#include <optional>
#include <string_view>

namespace gentle::cli {

enum class PrStateVerb { kShow, kSet };

inline constexpr PrStateVerb kAllPrStateVerbs[] = {PrStateVerb::kShow, PrStateVerb::kSet};

constexpr std::string_view PrStateVerbName(PrStateVerb verb) {
  return verb == PrStateVerb::kSet ? "set" : "show";
}

// nullopt for any other text (case matters).
constexpr std::optional<PrStateVerb> ParsePrStateVerb(std::string_view name) {
  for (PrStateVerb verb : kAllPrStateVerbs) {
    if (PrStateVerbName(verb) == name) return verb;
  }
  return std::nullopt;
}

}  // namespace gentle::cli

#endif  // GENTLE_CLI_PR_STATE_VERB_H_
