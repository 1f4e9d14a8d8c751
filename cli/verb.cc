#include "cli/verb.h"

#include <CLI/CLI.hpp>

namespace gentle::cli {

Option Option::TypeName(const char* name) {
  option_->type_name(name);
  return *this;
}

Option Option::Required() {
  option_->required();
  return *this;
}

Option Command::AddOption(const char* name, std::string* value, std::string_view description) {
  return Option(app_->add_option(name, *value, std::string(description)));
}

Option Command::AddOption(const char* name, std::vector<std::string>* values,
                          std::string_view description) {
  return Option(app_->add_option(name, *values, std::string(description)));
}

Option Command::AddOption(const char* name, int* value, std::string_view description) {
  return Option(app_->add_option(name, *value, std::string(description)));
}

Option Command::AddFlag(const char* name, bool* value, std::string_view description) {
  return Option(app_->add_flag(name, *value, std::string(description)));
}

void Command::OnParsed(std::function<void()> parsed) { app_->callback(std::move(parsed)); }

bool Command::Given(const char* name) const {
  const CLI::Option* option = app_->get_option_no_throw(name);
  return option != nullptr && option->count() > 0;
}

Command AddBareCommand(CLI::App* parent, std::string_view name, std::string_view description) {
  CLI::App* command = parent->add_subcommand(std::string(name), std::string(description));
  command->allow_extras(false);
  return Command(command);
}

Command AddCommand(CLI::App* parent, std::string_view name, std::string_view description,
                   Invocation* in) {
  Command command = AddBareCommand(parent, name, description);
  command.AddOption("--cwd", &in->common.cwd, "Directory inside the repository (default: .)")
      .TypeName("DIR");
  command.AddFlag("--json", &in->common.json, "Machine-readable output (errors too)");
  return command;
}

Command AddCommand(CLI::App* parent, const Verb& verb, Invocation* in) {
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

void AddLineageFlag(Command command, std::string* lineage) {
  command.AddOption("--lineage", lineage, "The lineage id").Required();
}

void AddRevisionFlag(Command command, std::string* revision, bool required) {
  Option option = command.AddOption("--expected-revision", revision,
                                    "The revision you read (compare-and-swap)");
  if (required) option.Required();
}

}  // namespace gentle::cli
