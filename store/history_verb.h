// HistoryVerb: the verbs a lineage history commit may name (its subject `<verb> <lineage>`,
// docs/format.md, "The history tree"), one enum with one name table. The chain verification accepts
// exactly these; the two terminal verbs leave the lineage in the state their commit's State trailer
// names: burn -> `consumed`, abandon -> `retired`. A new mutating verb that writes a history commit
// joins the enum (tests/verb_registry_test.cc fails until it does).
//
// A commit read back holds its verb as a HistoryVerbWord (store/word.h): the enumerator when the
// subject's first word is one of the names, and that word as written. A legacy pin's is "pin" and
// a fetched commit may carry any word; neither names an enumerator, and the chain verification
// refuses both. Code asks Is(HistoryVerb) or value(); text() is for messages and output only.
#ifndef GENTLE_STORE_HISTORY_VERB_H_
#define GENTLE_STORE_HISTORY_VERB_H_

#include <optional>
#include <string_view>

#include "store/name_table.h"
#include "store/review_state.h"
#include "store/word.h"

namespace gentle::store {

enum class HistoryVerb {
  kStart,
  kVerdict,
  kInvalidate,
  kBurn,
  kAbandon,
  kSync,
  kRevise,
  kCoApprove,  // a further APPROVE of an approved round (docs/format.md, "Co-approvals")
};

inline constexpr NameTable kHistoryVerbNames = MakeNameTable<HistoryVerb>({
    {HistoryVerb::kStart, "start"},
    {HistoryVerb::kVerdict, "verdict"},
    {HistoryVerb::kInvalidate, "invalidate"},
    {HistoryVerb::kBurn, "burn"},
    {HistoryVerb::kAbandon, "abandon"},
    {HistoryVerb::kSync, "sync"},
    {HistoryVerb::kRevise, "revise"},
    {HistoryVerb::kCoApprove, "co-approve"},
});
inline constexpr const auto& kAllHistoryVerbs = kHistoryVerbNames.values;

constexpr std::string_view HistoryVerbName(HistoryVerb verb) {
  return kHistoryVerbNames.Name(verb);
}
// nullopt for any other text.
constexpr std::optional<HistoryVerb> ParseHistoryVerb(std::string_view name) {
  return kHistoryVerbNames.Parse(name);
}
using HistoryVerbWord = Word<kHistoryVerbNames>;

// The state a terminal verb leaves: consumed (burn), retired (abandon); nullopt for any other
// verb, and for a word that names none.
std::optional<TerminalState> TerminalStateOf(const HistoryVerbWord& verb);
// Whether `verb` is burn or abandon.
bool IsTerminalVerb(const HistoryVerbWord& verb);

}  // namespace gentle::store

#endif  // GENTLE_STORE_HISTORY_VERB_H_
