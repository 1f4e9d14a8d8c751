#include "cli/selector_flags.h"

#include <CLI/CLI.hpp>

#include "cli/verb.h"

namespace gentle::cli {

void AddSelectorFlags(CLI::App* command, transaction::Selector* selector) {
  command->add_option("--kind", selector->kind, "current-changes | base-diff | commit-range");
  command->add_option("--base", selector->base, "Base revision (base-diff, commit-range)")
      ->type_name("REV");
  command->add_option("--head", selector->head, "Head revision (commit-range)")->type_name("REV");
  command->add_flag("--staged", selector->staged, "Review the index instead of the workspace");
  command
      ->add_option("--untracked", selector->untracked,
                   "An untracked file to include (repeatable; relative to the worktree root)")
      ->type_name("PATH");
}

bool SelectorGiven(const CLI::App* command) {
  for (const char* name : {"--kind", "--base", "--head", "--staged", "--untracked"}) {
    if (Given(command, name)) return true;
  }
  return false;
}

}  // namespace gentle::cli
