#include "store/history_verb.h"

namespace gentle::store {

std::string_view HistoryVerbName(HistoryVerb verb) {
  switch (verb) {
    case HistoryVerb::kStart:
      return "start";
    case HistoryVerb::kVerdict:
      return "verdict";
    case HistoryVerb::kInvalidate:
      return "invalidate";
    case HistoryVerb::kBurn:
      return "burn";
    case HistoryVerb::kAbandon:
      return "abandon";
    case HistoryVerb::kSync:
      return "sync";
    case HistoryVerb::kRevise:
      return "revise";
    case HistoryVerb::kCoApprove:
      return "co-approve";
  }
  return "";
}

std::optional<HistoryVerb> ParseHistoryVerb(std::string_view name) {
  for (HistoryVerb verb : kAllHistoryVerbs) {
    if (HistoryVerbName(verb) == name) return verb;
  }
  return std::nullopt;
}

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
