#include "cli/selector_flags.h"

#include "cli/verb.h"

namespace gentle::cli {

void AddSelectorFlags(Command command, transaction::Selector* selector) {
  command.AddOption("--kind", &selector->kind, "current-changes | base-diff | commit-range");
  command.AddOption("--base", &selector->base, "Base revision (base-diff, commit-range)")
      .TypeName("REV");
  command.AddOption("--head", &selector->head, "Head revision (commit-range)").TypeName("REV");
  command.AddFlag("--staged", &selector->staged, "Review the index instead of the workspace");
  command
      .AddOption("--untracked", &selector->untracked,
                 "An untracked file to include (repeatable; relative to the worktree root)")
      .TypeName("PATH");
}

bool SelectorGiven(const Command& command) {
  for (const char* name : {"--kind", "--base", "--head", "--staged", "--untracked"}) {
    if (Given(command, name)) return true;
  }
  return false;
}

}  // namespace gentle::cli
