// The --context FILE and --context-unavailable REASON flags of `start` and `revise`
// (docs/loop.md): AddContextFlags defines them, GivenContextFlags records the ones given.
// ReadCheckedContext is the command line's half of --context: the file is read once, bounded
// (64 MiB, `budget_exceeded` above), and must be exactly what `review context import` writes
// (forge/review_context.h, ParseReviewContext: any other bytes are `usage` naming the file and the
// JSON path); its bytes then travel in the flags, so the transaction binds what was checked.
#ifndef GENTLE_CLI_CONTEXT_FLAGS_H_
#define GENTLE_CLI_CONTEXT_FLAGS_H_

#include <string>

#include "cli/verb.h"
#include "store/status.h"
#include "transaction/round_context_binding.h"

namespace gentle::cli {

// The flags' text as parsed (recorded only when given, by GivenContextFlags).
struct ContextFlagText {
  std::string file, unavailable;
};

void AddContextFlags(Command command, ContextFlagText* text);
transaction::ContextFlags GivenContextFlags(const Command& command, const ContextFlagText& text);

Result<transaction::ContextFlags> ReadCheckedContext(transaction::ContextFlags flags);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_CONTEXT_FLAGS_H_
