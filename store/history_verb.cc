#include "store/history_verb.h"

namespace gentle::store {

bool IsHistoryVerb(std::string_view name, HistoryVerb verb) {
  return name == HistoryVerbName(verb);
}

bool IsTerminalVerb(std::string_view verb) { return TerminalStateOf(verb).has_value(); }

std::optional<TerminalState> TerminalStateOf(std::string_view verb) {
  const std::optional<HistoryVerb> parsed = ParseHistoryVerb(verb);
  if (parsed == HistoryVerb::kBurn) return TerminalState::kConsumed;
  if (parsed == HistoryVerb::kAbandon) return TerminalState::kRetired;
  return std::nullopt;
}

}  // namespace gentle::store
