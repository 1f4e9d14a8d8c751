#include "cli/verb.h"

#include <CLI/CLI.hpp>
#include <stdexcept>
#include <string>

namespace gentle::cli {
namespace {

// `--NAME` of an argument `--NAME` or `--NAME=VALUE` whose NAME is lower-case letters, digits and
// dashes (a letter first), as every option of the command table is named; empty for any other
// argument.
std::string_view LongName(std::string_view arg) {
  if (arg.size() < 3 || arg[0] != '-' || arg[1] != '-' || arg[2] < 'a' || arg[2] > 'z') return {};
  size_t end = 3;
  while (end < arg.size() && arg[end] != '=') {
    const char c = arg[end];
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return {};
    ++end;
  }
  return arg.substr(0, end);
}

CLI::Option* DefineNow(CLI::App* app, Option::Kind kind, const char* name, void* value,
                       std::string_view description) {
  switch (kind) {
    case Option::Kind::kString:
      return app->add_option(name, *static_cast<std::string*>(value), std::string(description));
    case Option::Kind::kStrings:
      return app->add_option(name, *static_cast<std::vector<std::string>*>(value),
                             std::string(description));
    case Option::Kind::kInt:
      return app->add_option(name, *static_cast<int*>(value), std::string(description));
    case Option::Kind::kFlag:
      return app->add_flag(name, *static_cast<bool*>(value), std::string(description));
  }
  throw std::logic_error("unknown option kind");
}

// A command below `parent` that accepts only the options defined on it.
CLI::App* AddSubcommand(CLI::App* parent, std::string_view name, std::string_view description) {
  CLI::App* command = parent->add_subcommand(std::string(name), std::string(description));
  command->allow_extras(false);
  return command;
}

}  // namespace

OptionFilter::OptionFilter(int argc, const char* const* argv, int first) : every_(false) {
  for (int i = first; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.empty() || arg[0] != '-') continue;  // a value or a positional argument
    const std::string_view name = LongName(arg);
    if (name.empty() || name == "--help") {
      every_ = true;
      named_.clear();
      return;
    }
    named_.push_back(name);
  }
}

bool OptionFilter::Defines(std::string_view name) const {
  if (every_) return true;
  for (std::string_view named : named_) {
    if (named == name) return true;
  }
  return false;
}

Option Option::TypeName(const char* name) {
  if (option_ != nullptr) {
    option_->type_name(name);
  } else {
    skipped_.type_name = name;
  }
  return *this;
}

Option Option::Required() {
  if (option_ == nullptr) {
    // Defined here, in the place AddOption left it: no option may have been added since.
    if (skipped_.app->get_options().size() != skipped_.defined_before) {
      throw std::logic_error(std::string("Required() of ") + skipped_.name +
                             " after another option was defined");
    }
    option_ =
        DefineNow(skipped_.app, skipped_.kind, skipped_.name, skipped_.value, skipped_.description);
    if (skipped_.type_name != nullptr) option_->type_name(skipped_.type_name);
  }
  option_->required();
  return *this;
}

Option Command::Define(Option::Kind kind, const char* name, void* value,
                       std::string_view description) {
  if (filter_ == nullptr || name[0] != '-' || filter_->Defines(name)) {
    return Option(DefineNow(app_, kind, name, value, description));
  }
  Option::Skipped skipped;
  skipped.app = app_;
  skipped.kind = kind;
  skipped.name = name;
  skipped.value = value;
  skipped.description = description;
  skipped.defined_before = app_->get_options().size();
  return Option(skipped);
}

Option Command::AddOption(const char* name, std::string* value, std::string_view description) {
  return Define(Option::Kind::kString, name, value, description);
}

Option Command::AddOption(const char* name, std::vector<std::string>* values,
                          std::string_view description) {
  return Define(Option::Kind::kStrings, name, values, description);
}

Option Command::AddOption(const char* name, int* value, std::string_view description) {
  return Define(Option::Kind::kInt, name, value, description);
}

Option Command::AddFlag(const char* name, bool* value, std::string_view description) {
  return Define(Option::Kind::kFlag, name, value, description);
}

void Command::OnParsed(std::function<void()> parsed) { app_->callback(std::move(parsed)); }

bool Command::Given(const char* name) const {
  const CLI::Option* option = app_->get_option_no_throw(name);
  return option != nullptr && option->count() > 0;
}

Command AddBareCommand(CLI::App* parent, std::string_view name, std::string_view description) {
  return Command(AddSubcommand(parent, name, description));
}

Command AddCommand(CLI::App* parent, std::string_view name, std::string_view description,
                   Invocation* in) {
  Command command(AddSubcommand(parent, name, description), &in->options);
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
