#include "store/round_budget.h"

#include "store/history_ref.h"
#include "store/round_context.h"

namespace gentle::store {

std::string EncodeRoundBudget(uint64_t budget) {
  if (budget == kDefaultRoundBudgetBytes) return "";
  return std::to_string(budget) + "\n";
}

std::optional<uint64_t> DecodeRoundBudget(std::string_view bytes) {
  if (bytes.size() < 2 || bytes.size() > 21 || bytes.back() != '\n' || bytes[0] == '0') {
    return std::nullopt;
  }
  uint64_t value = 0;
  for (char c : bytes.substr(0, bytes.size() - 1)) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<uint64_t>(c - '0');
    if (value > kMaxRoundBudgetBytes) return std::nullopt;
  }
  if (value < kMinRoundBudgetBytes) return std::nullopt;
  return value;
}

Result<uint64_t> ReadRoundBudget(const git::Repository& repo, const std::string& tip,
                                 int64_t round) {
  GENTLE_ASSIGN_OR_RETURN(std::optional<RoundContext> opened, ReadRoundContext(repo, tip, round));
  if (!opened) return kDefaultRoundBudgetBytes;
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> file,
                          ReadHistoryFile(repo, opened->commit, std::string(kHistoryBudgetName)));
  if (!file) return kDefaultRoundBudgetBytes;
  const std::optional<uint64_t> budget = DecodeRoundBudget(*file);
  if (!budget) {
    return Status(Code::kCorrupted, "the history file " + std::string(kHistoryBudgetName) +
                                        " of commit " + opened->commit +
                                        " is not a budget in bytes");
  }
  return *budget;
}

}  // namespace gentle::store
