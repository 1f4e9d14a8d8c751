// ContextCap: whether APPROVE of a review round is capped for want of its forge review context
// (docs/lifecycle.md, "Review context binding"), decided in one place for `review verdict`, which
// refuses a capped APPROVE with `context_unavailable`, and for `review status`, whose `next` must
// not lead a harness into that refusal (transaction/next_action.h: `approve_capped`,
// `context_required`).
//
// A round is capped when its harness marked it context-unavailable (`--context-unavailable`), or
// when it is bound to no context at all (neither flag, or opened by another tool whose binding the
// history does not know) and git config gentle-ai.requireContext is true. A round bound with
// `--context` is never capped. Read-only.
#ifndef GENTLE_TRANSACTION_CONTEXT_CAP_H_
#define GENTLE_TRANSACTION_CONTEXT_CAP_H_

#include <optional>

#include "store/git/repository.h"
#include "store/round_context.h"
#include "store/status.h"

namespace gentle::transaction {

inline constexpr const char* kRequireContextKey = "gentle-ai.requireContext";

// How a round stands towards its review context.
enum class RoundBinding {
  kBound,        // opened with --context: APPROVE stands
  kUnavailable,  // marked context-unavailable: APPROVE is capped
  kUnbound,      // neither, or not known here: capped when gentle-ai.requireContext is true
};

// `round`: the round's binding as store::ReadRoundContext reads it (nullopt: not known here).
RoundBinding BindingOf(const std::optional<store::RoundContext>& round);

// git config gentle-ai.requireContext (transaction/config_flag.h): unset is false; a value git
// does not read as a boolean is `usage` naming the key.
Result<bool> RequireContext(const store::git::Repository& repo);

// For a reader that must not fail on the switch (status): a value that is not a boolean reads as
// true, because APPROVE of an unbound round is then refused too (with `usage`).
bool RequireContextOrTrue(const store::git::Repository& repo);

// Whether APPROVE of a round of this binding is refused, `require_context` being the switch.
bool ApproveCapped(RoundBinding binding, bool require_context);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_CONTEXT_CAP_H_
