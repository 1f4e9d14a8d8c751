// ReadCheckedContext: the command line's half of `start`/`revise --context FILE` (docs/loop.md):
// the file is read once, bounded (64 MiB, `budget_exceeded` above), and must be exactly what
// `review context import` writes (forge/review_context.h, ParseReviewContext: any other bytes are
// `usage` naming the file and the JSON path); its bytes then travel in the flags, so the
// transaction binds what was checked.
#ifndef GENTLE_CLI_CONTEXT_FLAGS_H_
#define GENTLE_CLI_CONTEXT_FLAGS_H_

#include "store/status.h"
#include "transaction/round_context_binding.h"

namespace gentle::cli {

Result<transaction::ContextFlags> ReadCheckedContext(transaction::ContextFlags flags);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_CONTEXT_FLAGS_H_
