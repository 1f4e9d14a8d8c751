// Verb: the contract between the command table (cli/verb_table.h, parsed by cli/app.cc) and a
// verb's own file, cli/cmd_<verb>.cc. The file holds the verb's options and its Define function,
// which makes the verb's command below `review` (or a group of commands, such as `seen`), binds
// every option to storage the Invocation holds, and sets a callback that, once that command is
// parsed, chooses the action running the verb. A command line defines only the verb it names;
// the root's --help, the man pages and the completions define every row (cli/app.h).
//
// Command and Option wrap CLI11's App and Option one call for one call (the same names, order,
// descriptions and type names), so that CLI11's header is compiled only into cli/verb.cc,
// cli/app.cc and cli/command_doc.cc: every file that includes it constructs CLI11's validators at
// start-up, about 7K instructions each.
#ifndef GENTLE_CLI_VERB_H_
#define GENTLE_CLI_VERB_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace gentle::cli {

// --cwd and --json: every command of `review` takes them (`version`: --json only).
struct CommonOptions {
  std::string cwd = ".";
  bool json = false;
};

// Which options of a command a command line needs defined. CLI11 spends about 10K instructions
// on each option it defines (docs/performance.md, "Small export and verify"), and an option a
// command line does not name is neither parsed nor refused: a command parsed for `review VERB
// ARGS` defines, of its optional options, only those ARGS names as `--NAME` or `--NAME=VALUE`.
// Every option is defined when an argument starting with '-' has any other shape (`-h`, `--`,
// `-`, `-1`, a short option) or is `--help`, so that CLI11's answer is the whole command's;
// required options and positional arguments are always defined. Otherwise no argument asks for
// help, and no command has a help flag (cli/app.h). With the options defined in their usual
// order, every parse, error and help text is the one of the whole command.
class OptionFilter {
 public:
  OptionFilter() = default;  // every option
  // The long option names argv[first..argc) gives.
  OptionFilter(int argc, const char* const* argv, int first);
  // Whether an optional option `name` ("--lineage") is to be defined.
  bool Defines(std::string_view name) const;
  // Whether every option is (also when an argument is -h or --help).
  bool every() const { return every_; }

 private:
  bool every_ = true;
  std::vector<std::string_view> named_;
};

// One parse of a command line: the common options, the options of each verb defined (CLI11
// writes into them while parsing) and the action the parsed command chose.
class Invocation {
 public:
  CommonOptions common;
  OptionFilter options;  // which optional options the commands define

  // A new T, value-initialised, that lives as long as the invocation.
  template <typename T>
  T* Hold() {
    auto held = std::make_shared<T>();
    T* raw = held.get();
    held_.push_back(std::move(held));
    return raw;
  }
  // Called by the parsed command's callback.
  void Choose(std::function<int()> action) { action_ = std::move(action); }
  // The chosen action's exit code; 0 when none was chosen.
  int RunChosen() const { return action_ ? action_() : 0; }

 private:
  std::vector<std::shared_ptr<void>> held_;
  std::function<int()> action_;
};

struct Verb;
// Defines `verb` below `parent`: its command with every option, or its group and the group's
// commands.
using DefineVerb = void (*)(CLI::App* parent, const Verb& verb, Invocation* in);

// One row of the command table.
struct Verb {
  std::string_view name;     // the word after `gentle-ai review` (or `gentle-ai`)
  std::string_view summary;  // one line: the parent's --help list, the man page's NAME
  DefineVerb define;
};

// An option or positional argument of a command, or an optional option the command line does not
// name (OptionFilter): not defined unless Required() is called, which must then directly follow
// its AddOption (and TypeName), so that options are defined in their usual order.
class Option {
 public:
  enum class Kind { kString, kStrings, kInt, kFlag };
  // What defining a skipped option takes.
  struct Skipped {
    CLI::App* app = nullptr;
    Kind kind = Kind::kString;
    const char* name = nullptr;
    void* value = nullptr;
    std::string_view description;
    const char* type_name = nullptr;
    size_t defined_before = 0;  // the command's option count when it was skipped
  };
  explicit Option(CLI::Option* option) : option_(option) {}
  explicit Option(const Skipped& skipped) : option_(nullptr), skipped_(skipped) {}
  Option TypeName(const char* name);  // what --help shows for its value: FILE, DIR, REV, ...
  Option Required();

 private:
  CLI::Option* option_;
  Skipped skipped_;
};

// A command that accepts only the options defined on it.
class Command {
 public:
  // `filter` (null: every option) outlives the command.
  explicit Command(CLI::App* app, const OptionFilter* filter = nullptr)
      : app_(app), filter_(filter) {}
  // --name VALUE (a name without dashes: a positional argument), bound to `*value`.
  Option AddOption(const char* name, std::string* value, std::string_view description);
  Option AddOption(const char* name, std::vector<std::string>* values,  // repeatable
                   std::string_view description);
  Option AddOption(const char* name, int* value, std::string_view description);
  Option AddFlag(const char* name, bool* value, std::string_view description);
  // Runs `parsed` once this command is parsed (it chooses the Invocation's action).
  void OnParsed(std::function<void()> parsed);
  // Whether option `name` was given (false for one the command does not define).
  bool Given(const char* name) const;

 private:
  // The option, or what defining it takes when the filter skips it.
  Option Define(Option::Kind kind, const char* name, void* value, std::string_view description);

  CLI::App* app_;
  const OptionFilter* filter_;
};

// A command below `parent` with --cwd and --json (bound to in->common).
Command AddCommand(CLI::App* parent, std::string_view name, std::string_view description,
                   Invocation* in);
Command AddCommand(CLI::App* parent, const Verb& verb, Invocation* in);
// A command below `parent` with no option yet (`version`: --json only, no --cwd).
Command AddBareCommand(CLI::App* parent, std::string_view name, std::string_view description);
// A group of commands: exactly one of them must be given.
CLI::App* AddGroup(CLI::App* parent, std::string_view name, std::string_view description);
CLI::App* AddGroup(CLI::App* parent, const Verb& verb);

// Whether option `name` of the parsed `command` was given (false for one it does not define).
inline bool Given(const Command& command, const char* name) { return command.Given(name); }

// --lineage ID, required: the lineage a lifecycle verb acts on.
void AddLineageFlag(Command command, std::string* lineage);
// --expected-revision REV, the compare-and-swap of a mutation; read it with Given.
void AddRevisionFlag(Command command, std::string* revision, bool required);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_VERB_H_
