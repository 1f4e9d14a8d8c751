// PrKey: the pull request a seen ledger entry or a hint line names, written
// `<forge>:<owner>/<repo>#<n>` (docs/loop.md).
//
// Syntax, checked whole (anything else is `usage`, naming the rule that failed):
// - forge: `github`, `gitea` or `aone`, lowercase;
// - owner and repo: 1 to 100 bytes of [A-Za-z0-9._-], neither `.` nor `..`;
// - n: a decimal number >= 1 without leading zeros, at most 18 digits (fits an int64).
// FormatPrKey(ParsePrKey(s)) == s for every accepted s. Pure, no I/O.
#ifndef GENTLE_LOOP_PR_KEY_H_
#define GENTLE_LOOP_PR_KEY_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "store/forge_name.h"
#include "store/status.h"

namespace gentle::loop {

inline constexpr size_t kMaxPrNameBytes = 100;  // owner, repo
inline constexpr size_t kMaxPrNumberDigits = 18;

struct PrKey {
  store::Forge forge = store::Forge::kGithub;
  std::string owner;
  std::string repo;
  int64_t number = 0;
};

Result<PrKey> ParsePrKey(std::string_view text);
std::string FormatPrKey(const PrKey& key);

// Ok when `text` is a decimal number >= 1 without leading zeros of at most `max_digits` digits;
// otherwise `usage` naming `what`.
Status CheckDecimal(std::string_view what, std::string_view text, size_t max_digits);

}  // namespace gentle::loop

#endif  // GENTLE_LOOP_PR_KEY_H_
