// Shell completion scripts for gentle-ai, rendered from the command tree (cli/command_doc.h):
// bash (a `complete -F` function), zsh (a #compdef file of _arguments functions, one per command)
// and fish (`complete` lines keyed on the command path). Each completes the subcommands of a
// group, every flag of a command, files after a FILE option and directories after --cwd; a value
// of any other option is left to the user. The scripts depend only on the tree.
#ifndef GENTLE_CLI_SHELL_COMPLETION_H_
#define GENTLE_CLI_SHELL_COMPLETION_H_

#include <string>

#include "cli/command_doc.h"

namespace gentle::cli {

// Installed as bash-completion's completions/gentle-ai.
std::string RenderBashCompletion(const CommandDoc& root);
// Installed as zsh's vendor-completions/_gentle-ai.
std::string RenderZshCompletion(const CommandDoc& root);
// Installed as fish's vendor_completions.d/gentle-ai.fish.
std::string RenderFishCompletion(const CommandDoc& root);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_SHELL_COMPLETION_H_
