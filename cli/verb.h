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

// One parse of a command line: the common options, the options of each verb defined (CLI11
// writes into them while parsing) and the action the parsed command chose.
class Invocation {
 public:
  CommonOptions common;

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

// An option or positional argument of a command.
class Option {
 public:
  explicit Option(CLI::Option* option) : option_(option) {}
  Option TypeName(const char* name);  // what --help shows for its value: FILE, DIR, REV, ...
  Option Required();

 private:
  CLI::Option* option_;
};

// A command that accepts only the options defined on it.
class Command {
 public:
  explicit Command(CLI::App* app) : app_(app) {}
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
  CLI::App* app_;
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
