// The selector flags of `start` (--kind, --base, --head, --staged, --untracked), defined once:
// `status` takes the same ones and answers for the candidate they name.
#ifndef GENTLE_CLI_SELECTOR_FLAGS_H_
#define GENTLE_CLI_SELECTOR_FLAGS_H_

#include "transaction/selector.h"

namespace CLI {
class App;
}  // namespace CLI

namespace gentle::cli {

void AddSelectorFlags(CLI::App* command, transaction::Selector* selector);
// Whether any selector flag was given (once `command` is parsed).
bool SelectorGiven(const CLI::App* command);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_SELECTOR_FLAGS_H_
