#include "cli/verb.h"

#include <CLI/CLI.hpp>

namespace gentle::cli {

CLI::App* AddCommand(CLI::App* parent, std::string_view name, std::string_view description,
                     Invocation* in) {
  CLI::App* command = parent->add_subcommand(std::string(name), std::string(description));
  command->allow_extras(false);
  command->add_option("--cwd", in->common.cwd, "Directory inside the repository (default: .)")
      ->type_name("DIR");
  command->add_flag("--json", in->common.json, "Machine-readable output (errors too)");
  return command;
}

CLI::App* AddCommand(CLI::App* parent, const Verb& verb, Invocation* in) {
  return AddCommand(parent, verb.name, verb.summary, in);
}

CLI::App* AddGroup(CLI::App* parent, std::string_view name, std::string_view description) {
  CLI::App* group = parent->add_subcommand(std::string(name), std::string(description));
  group->allow_extras(false);
  group->require_subcommand(1);
  return group;
}

CLI::App* AddGroup(CLI::App* parent, const Verb& verb) {
  return AddGroup(parent, verb.name, verb.summary);
}

bool Given(const CLI::App* command, const char* name) {
  const CLI::Option* option = command->get_option_no_throw(name);
  return option != nullptr && option->count() > 0;
}

void AddLineageFlag(CLI::App* command, std::string* lineage) {
  command->add_option("--lineage", *lineage, "The lineage id")->required();
}

void AddRevisionFlag(CLI::App* command, std::string* revision, bool required) {
  auto* option = command->add_option("--expected-revision", *revision,
                                     "The revision you read (compare-and-swap)");
  if (required) option->required();
}

}  // namespace gentle::cli
