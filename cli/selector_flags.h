// The selector flags of `start` (--kind, --base, --head, --staged, --untracked), defined once:
// `status` takes the same ones and answers for the candidate they name.
#ifndef GENTLE_CLI_SELECTOR_FLAGS_H_
#define GENTLE_CLI_SELECTOR_FLAGS_H_

#include "cli/verb.h"
#include "transaction/selector.h"

namespace gentle::cli {

void AddSelectorFlags(Command command, transaction::Selector* selector);
// Whether any selector flag was given (once `command` is parsed).
bool SelectorGiven(const Command& command);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_SELECTOR_FLAGS_H_
