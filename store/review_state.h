// ReviewState: the lineage state machine's states, one enum with one name table (their on-disk
// names, gentle-ai's compact-v2 vocabulary). TerminalState: the two states a lineage is left in by
// a terminal verb, named by that verb's history commit (store/history_verb.h): `consumed` (burn)
// and `retired` (abandon). Code compares states as enum values; the names are only for reading and
// writing records, trailers and output.
//
// StateName is a state as a record, an index row, a history commit's State trailer or a result
// holds it: the state when this build knows its name, and the name as written. The name is kept
// because a record may carry a state this build does not know (a newer gentle-ai's): such a record
// still reads, its state is printed and stored byte for byte as written, neither state() nor
// terminal() answers, and each verb decides (a verdict or a burn refuses it with wrong_state, an
// abandon accepts it, next_action says unknown_state). An empty StateName is "no state".
#ifndef GENTLE_STORE_REVIEW_STATE_H_
#define GENTLE_STORE_REVIEW_STATE_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "store/name_table.h"

namespace gentle::store {

enum class ReviewState {
  kReviewing,
  kApproved,
  kCorrectionRequired,
  kEscalated,
  kInvalidated,
  // gentle-ai's flag-gated "decision needed" state: accepts no verdict and is not abandoned.
  kDecisionRequired,
};

inline constexpr NameTable kReviewStateNames = MakeNameTable<ReviewState>({
    {ReviewState::kReviewing, "reviewing"},
    {ReviewState::kApproved, "approved"},
    {ReviewState::kCorrectionRequired, "correction_required"},
    {ReviewState::kEscalated, "escalated"},
    {ReviewState::kInvalidated, "invalidated"},
    {ReviewState::kDecisionRequired, "decision_required"},
});

constexpr std::string_view ReviewStateName(ReviewState state) {
  return kReviewStateNames.Name(state);
}
// nullopt for any other text.
constexpr std::optional<ReviewState> ParseReviewState(std::string_view name) {
  return kReviewStateNames.Parse(name);
}
// Terminal states accept no verdict and cannot be abandoned.
bool IsTerminal(ReviewState state);

enum class TerminalState { kConsumed, kRetired };

inline constexpr NameTable kTerminalStateNames = MakeNameTable<TerminalState>({
    {TerminalState::kConsumed, "consumed"},
    {TerminalState::kRetired, "retired"},
});

constexpr std::string_view TerminalStateName(TerminalState state) {
  return kTerminalStateNames.Name(state);
}
// nullopt for any other text.
constexpr std::optional<TerminalState> ParseTerminalState(std::string_view name) {
  return kTerminalStateNames.Parse(name);
}

class StateName {
 public:
  StateName() = default;
  StateName(ReviewState state)  // NOLINT: implicit, a known state is its name
      : name_(ReviewStateName(state)), state_(state) {}
  StateName(TerminalState state)  // NOLINT: implicit, as above
      : name_(TerminalStateName(state)), terminal_(state) {}
  // The name as written; state() and terminal() answer when this build knows it.
  static StateName FromText(std::string name) {
    StateName out;
    out.state_ = ParseReviewState(name);
    out.terminal_ = ParseTerminalState(name);
    out.name_ = std::move(name);
    return out;
  }

  const std::string& name() const { return name_; }
  bool empty() const { return name_.empty(); }
  // The review state named; nullopt for a terminal state, an unknown name or none.
  std::optional<ReviewState> state() const { return state_; }
  // The terminal state named; nullopt otherwise.
  std::optional<TerminalState> terminal() const { return terminal_; }
  bool Is(ReviewState state) const { return state_ == state; }
  bool Is(TerminalState state) const { return terminal_ == state; }
  bool operator==(const StateName& other) const { return name_ == other.name_; }

 private:
  std::string name_;
  std::optional<ReviewState> state_;
  std::optional<TerminalState> terminal_;
};

// Whether `abandon` may retire a lineage in `state`: not a terminal state and not
// decision_required; a state this build does not know may be abandoned.
bool AcceptsAbandon(const StateName& state);

}  // namespace gentle::store

#endif  // GENTLE_STORE_REVIEW_STATE_H_
