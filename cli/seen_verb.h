// SeenVerb: the verbs of `review seen` (docs/loop.md "review seen"), one enum with one name table
// (header-only): `baseline`, `add`, `check`, `list` and `new`. The command table defines one
// subcommand per name, in this order, and the answer's `verb` member is the name; code compares
// the enum, never the text.
#ifndef GENTLE_CLI_SEEN_VERB_H_
#define GENTLE_CLI_SEEN_VERB_H_

#include <optional>
#include <string_view>

namespace gentle::cli {

enum class SeenVerb { kBaseline, kAdd, kCheck, kList, kNew };

inline constexpr SeenVerb kAllSeenVerbs[] = {SeenVerb::kBaseline, SeenVerb::kAdd, SeenVerb::kCheck,
                                             SeenVerb::kList, SeenVerb::kNew};

constexpr std::string_view SeenVerbName(SeenVerb verb) {
  switch (verb) {
    case SeenVerb::kBaseline:
      return "baseline";
    case SeenVerb::kAdd:
      return "add";
    case SeenVerb::kCheck:
      return "check";
    case SeenVerb::kList:
      return "list";
    case SeenVerb::kNew:
      return "new";
  }
  return "";
}

// nullopt for any other text (case matters).
constexpr std::optional<SeenVerb> ParseSeenVerb(std::string_view name) {
  for (SeenVerb verb : kAllSeenVerbs) {
    if (SeenVerbName(verb) == name) return verb;
  }
  return std::nullopt;
}

}  // namespace gentle::cli

#endif  // GENTLE_CLI_SEEN_VERB_H_
