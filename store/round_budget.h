// RoundBudget: the reviewer's byte budget of a review round (docs/lifecycle.md, "The reviewer's
// budget"), frozen in the history file `max-bytes` of the round's opening commit (start or
// revise; docs/format.md, "The history tree"): the budget as a decimal number without sign or
// leading zero, then one newline. A round whose budget is the default (kDefaultRoundBudgetBytes,
// the export budget) has no such file, so a history is byte for byte what it was before budgets
// existed unless one was given; a round opened without the file (by an older build, or by the Go
// gentle-ai) reads as the default too. The record keeps gentle-ai's members only.
//
// Contract: Decode refuses (nullopt) anything but that form with a value from kMinRoundBudgetBytes
// to kMaxRoundBudgetBytes; a history holding such a file is corrupted. ReadRoundBudget finds the
// round's opening commit as store/round_context.h does and reads the file from it, bounded
// (store/history_ref.h HistoryFileLimit); read-only.
#ifndef GENTLE_STORE_ROUND_BUDGET_H_
#define GENTLE_STORE_ROUND_BUDGET_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "store/git/repository.h"
#include "store/status.h"

namespace gentle::store {

// The default budget: the export budget (export/derivation.h kMaxContextBytes), 4 MiB.
inline constexpr uint64_t kDefaultRoundBudgetBytes = uint64_t{4} << 20;
// The range a budget may take: a part holds at least one entry's summary (docs/commands.md), and
// no part is larger than the export budget.
inline constexpr uint64_t kMinRoundBudgetBytes = uint64_t{4} << 10;
inline constexpr uint64_t kMaxRoundBudgetBytes = kDefaultRoundBudgetBytes;

// The file's bytes for `budget`; empty for the default (the round's commit then has no file).
std::string EncodeRoundBudget(uint64_t budget);
std::optional<uint64_t> DecodeRoundBudget(std::string_view bytes);

// The budget of round `round` from the history whose tip is `tip`: the default when the round's
// opening commit has no `max-bytes` file or the history does not know the round's opening commit
// (store/round_context.h); `corrupted` for a file Decode refuses.
Result<uint64_t> ReadRoundBudget(const git::Repository& repo, const std::string& tip,
                                 int64_t round);

}  // namespace gentle::store

#endif  // GENTLE_STORE_ROUND_BUDGET_H_
