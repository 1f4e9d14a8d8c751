// SeenVerb: the verbs of `review seen` (docs/loop.md "review seen"), one enum with one name table
// (header-only): `baseline`, `add`, `check`, `list` and `new`. The command table defines one
// subcommand per name, in this order, and the answer's `verb` member is the name; code compares
// the enum, never the text.
#ifndef GENTLE_CLI_SEEN_VERB_H_
#define GENTLE_CLI_SEEN_VERB_H_

#include <optional>
#include <string_view>

#include "store/name_table.h"

namespace gentle::cli {

enum class SeenVerb { kBaseline, kAdd, kCheck, kList, kNew };

inline constexpr store::NameTable kSeenVerbNames = store::MakeNameTable<SeenVerb>({
    {SeenVerb::kBaseline, "baseline"},
    {SeenVerb::kAdd, "add"},
    {SeenVerb::kCheck, "check"},
    {SeenVerb::kList, "list"},
    {SeenVerb::kNew, "new"},
});
inline constexpr const auto& kAllSeenVerbs = kSeenVerbNames.values;

constexpr std::string_view SeenVerbName(SeenVerb value) { return kSeenVerbNames.Name(value); }

// nullopt for any other text (case matters).
constexpr std::optional<SeenVerb> ParseSeenVerb(std::string_view name) {
  return kSeenVerbNames.Parse(name);
}

}  // namespace gentle::cli

#endif  // GENTLE_CLI_SEEN_VERB_H_
