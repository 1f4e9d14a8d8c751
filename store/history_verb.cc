#include "store/history_verb.h"

namespace gentle::store {

std::optional<TerminalState> TerminalStateOf(const HistoryVerbWord& verb) {
  if (verb.Is(HistoryVerb::kBurn)) return TerminalState::kConsumed;
  if (verb.Is(HistoryVerb::kAbandon)) return TerminalState::kRetired;
  return std::nullopt;
}

bool IsTerminalVerb(const HistoryVerbWord& verb) { return TerminalStateOf(verb).has_value(); }

}  // namespace gentle::store
