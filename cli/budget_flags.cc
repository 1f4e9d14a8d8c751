#include "cli/budget_flags.h"

#include "store/round_budget.h"
#include "transaction/reviewer_runtime.h"

namespace gentle::cli {
namespace {

std::string RuntimeList() {
  std::string out;
  for (transaction::ReviewerRuntime r : transaction::kAllReviewerRuntimes) {
    if (!out.empty()) out += ", ";
    out += transaction::ReviewerRuntimeName(r);
  }
  return out;
}

Result<uint64_t> ParseMaxBytes(const std::string& s) {
  const std::string range = std::to_string(store::kMinRoundBudgetBytes) + " to " +
                            std::to_string(store::kMaxRoundBudgetBytes);
  if (s.empty() || s.size() > 18 || s[0] == '0' ||
      s.find_first_not_of("0123456789") != std::string::npos) {
    return Status(Code::kUsage, "--max-bytes must be a decimal number of bytes from " + range +
                                    ", got \"" + s + "\"");
  }
  const uint64_t value = std::stoull(s);
  if (value < store::kMinRoundBudgetBytes || value > store::kMaxRoundBudgetBytes) {
    return Status(Code::kUsage, "--max-bytes must be from " + range + " bytes, got " + s);
  }
  return value;
}

}  // namespace

void AddBudgetFlags(Command command, BudgetFlagText* text, const char* max_bytes_help,
                    const char* runtime_help) {
  command.AddOption("--max-bytes", &text->max_bytes, max_bytes_help).TypeName("N");
  command.AddOption("--runtime", &text->runtime, runtime_help).TypeName("NAME");
}

Result<std::optional<uint64_t>> GivenBudget(const Command& command, const BudgetFlagText& text) {
  const bool bytes = Given(command, "--max-bytes");
  const bool runtime = Given(command, "--runtime");
  if (bytes && runtime) return Status(Code::kUsage, "--max-bytes and --runtime are exclusive");
  if (bytes) {
    GENTLE_ASSIGN_OR_RETURN(uint64_t value, ParseMaxBytes(text.max_bytes));
    return std::optional<uint64_t>(value);
  }
  if (!runtime) return std::optional<uint64_t>();
  const std::optional<transaction::ReviewerRuntime> known =
      transaction::ParseReviewerRuntime(text.runtime);
  if (!known) {
    return Status(Code::kUsage,
                  "--runtime must be one of " + RuntimeList() + ", got \"" + text.runtime + "\"");
  }
  return std::optional<uint64_t>(transaction::ReviewerRuntimeBudget(*known));
}

}  // namespace gentle::cli
