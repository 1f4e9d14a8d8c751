#include "cli/round_flag.h"

namespace gentle::cli {

Result<std::optional<int64_t>> ParseRoundFlag(const std::string& flag,
                                              const std::optional<std::string>& text) {
  if (!text) return std::optional<int64_t>();
  const std::string& s = *text;
  if (s.empty() || s.size() > 18 || s[0] == '0' ||
      s.find_first_not_of("0123456789") != std::string::npos) {
    return Status(Code::kUsage, flag + " must be a decimal number >= 1, got \"" + s + "\"");
  }
  return std::optional<int64_t>(std::stoll(s));
}

}  // namespace gentle::cli
