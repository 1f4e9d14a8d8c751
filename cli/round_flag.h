// ParseRoundFlag: the value of a round flag (`comment --round`, `export-context --round` and
// `--since-round`): a decimal number >= 1 without sign or leading zero, at most 18 digits; anything
// else is `usage` naming the flag. An absent flag is nullopt.
#ifndef GENTLE_CLI_ROUND_FLAG_H_
#define GENTLE_CLI_ROUND_FLAG_H_

#include <cstdint>
#include <optional>
#include <string>

#include "store/status.h"

namespace gentle::cli {

Result<std::optional<int64_t>> ParseRoundFlag(const std::string& flag,
                                              const std::optional<std::string>& text);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_ROUND_FLAG_H_
