// The reviewer's budget flags of `start`, `revise` and `status` (docs/lifecycle.md, "The
// reviewer's budget"): --max-bytes N (a decimal number of bytes, from 4096 to 4194304, without
// sign or leading zero) or --runtime NAME (transaction/reviewer_runtime.h's table), exclusive.
// GivenBudget answers the budget they name, nullopt when neither is given; both given, a number
// out of form or range, or an unknown runtime are `usage` naming the flag.
#ifndef GENTLE_CLI_BUDGET_FLAGS_H_
#define GENTLE_CLI_BUDGET_FLAGS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "cli/verb.h"
#include "store/status.h"

namespace gentle::cli {

// The flags' text as parsed.
struct BudgetFlagText {
  std::string max_bytes, runtime;
};

// The two options, with the verb's own --help text for each.
void AddBudgetFlags(Command command, BudgetFlagText* text, const char* max_bytes_help,
                    const char* runtime_help);
Result<std::optional<uint64_t>> GivenBudget(const Command& command, const BudgetFlagText& text);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_BUDGET_FLAGS_H_
