#include "cli/context_flags.h"

#include "forge/forge_input.h"
#include "forge/review_context.h"

namespace gentle::cli {

Result<transaction::ContextFlags> ReadCheckedContext(transaction::ContextFlags flags) {
  if (!flags.context_file || flags.unavailable_reason) return flags;  // nothing to read, or usage
  GENTLE_ASSIGN_OR_RETURN(std::string bytes,
                          forge::ReadForgeInput(forge::Source{"--context", *flags.context_file}));
  GENTLE_RETURN_IF_ERROR(forge::ParseReviewContext(bytes, *flags.context_file).status());
  flags.context_bytes = std::move(bytes);
  return flags;
}

}  // namespace gentle::cli
