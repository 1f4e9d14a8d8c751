#include "store/history_verb.h"

namespace gentle::store {

bool IsHistoryVerb(std::string_view name, HistoryVerb verb) {
  return name == HistoryVerbName(verb);
}

bool IsTerminalVerb(std::string_view verb) { return !TerminalStateOf(verb).empty(); }

std::string_view TerminalStateOf(std::string_view verb) {
  if (verb == HistoryVerbName(HistoryVerb::kBurn)) return "consumed";
  if (verb == HistoryVerbName(HistoryVerb::kAbandon)) return "retired";
  return "";
}

}  // namespace gentle::store
