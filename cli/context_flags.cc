#include "cli/context_flags.h"

#include "cli/verb.h"
#include "forge/forge_input.h"
#include "forge/review_context.h"

namespace gentle::cli {

void AddContextFlags(Command command, ContextFlagText* text) {
  command
      .AddOption("--context", &text->file,
                 "The round's review context (review context import output): its comment "
                 "ids become the snapshot's ledger ids; kept in the history")
      .TypeName("FILE");
  command
      .AddOption("--context-unavailable", &text->unavailable,
                 "The harness could not read the review context (REASON): APPROVE is capped "
                 "in this round")
      .TypeName("REASON");
}

transaction::ContextFlags GivenContextFlags(const Command& command, const ContextFlagText& text) {
  transaction::ContextFlags flags;
  if (Given(command, "--context")) flags.context_file = text.file;
  if (Given(command, "--context-unavailable")) flags.unavailable_reason = text.unavailable;
  return flags;
}

Result<transaction::ContextFlags> ReadCheckedContext(transaction::ContextFlags flags) {
  if (!flags.context_file || flags.unavailable_reason) return flags;  // nothing to read, or usage
  GENTLE_ASSIGN_OR_RETURN(std::string bytes,
                          forge::ReadForgeInput(forge::Source{"--context", *flags.context_file}));
  GENTLE_RETURN_IF_ERROR(forge::ParseReviewContext(bytes, *flags.context_file).status());
  flags.context_bytes = std::move(bytes);
  return flags;
}

}  // namespace gentle::cli
