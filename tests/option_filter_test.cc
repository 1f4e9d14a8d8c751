// A command line `review VERB ARGS` defines, of the verb's optional options, only those ARGS
// names (cli/verb.h, OptionFilter): the options defined are checked, and for every command of the
// table, thousands of generated argument lists are parsed with the options so defined and with
// every option defined, and must give the same error, the same help text and the same parse
// (the commands parsed, and each given option's values in order).
#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "cli/app.h"
#include "cli/verb.h"
#include "cli/verb_table.h"

namespace gentle::testing {
namespace {

using cli::Invocation;
using cli::OptionFilter;
using cli::Verb;

// The command tree cli/app.cc parses `argv` with, its options filtered or all defined.
struct Tree {
  CLI::App app{"gentle-ai: the review transaction store"};
  Invocation in;
  CLI::App* review = nullptr;

  Tree(const std::vector<const char*>& argv, bool filtered) {
    cli::DefineCommandLine(static_cast<int>(argv.size()), argv.data(), filtered, &app, &in);
    review = app.get_subcommand("review");
  }
};

// The names of the options `command` defines, in order.
std::vector<std::string> Names(const CLI::App* command) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command->get_options()) names.push_back(option->get_name());
  return names;
}

// The parsed commands and each given option's values, in order.
void Describe(const CLI::App* command, std::string* out) {
  *out += "[" + command->get_name() + "]";
  for (const CLI::Option* option : command->get_options()) {
    if (option->count() == 0) continue;
    *out += " " + option->get_name() + "=";
    for (const std::string& value : option->results()) *out += "<" + value + ">";
  }
  for (const CLI::App* sub : command->get_subcommands()) Describe(sub, out);
}

// What parsing `review VERB ARGS` gives: the error, or the help text, and the parse.
std::string Outcome(const Verb& verb, const std::vector<std::string>& args, bool filtered) {
  std::vector<const char*> argv = {"gentle-ai", "review", verb.name.data()};
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  Tree tree(argv, filtered);
  std::string out;
  try {
    tree.app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::CallForHelp&) {
    out = "help: " + tree.app.help();
  } catch (const CLI::ParseError& e) {
    out = "error " + e.get_name() + " " + std::to_string(e.get_exit_code()) + ": " + e.what();
  }
  Describe(&tree.app, &out);
  return out;
}

// Every command path of `verb` (the verb, or each command of its group) with its options' names.
struct CommandPath {
  std::vector<std::string> words;  // below the verb: {} or {"add"}
  std::vector<std::string> names;  // "--pr", "line", ...
};

void CollectPaths(const CLI::App* command, std::vector<std::string> words,
                  std::vector<CommandPath>* out) {
  const std::vector<const CLI::App*> subs = command->get_subcommands({});
  if (subs.empty()) {
    CommandPath path{words, {}};
    for (const CLI::Option* option : command->get_options()) {
      path.names.push_back(option->get_name());
    }
    out->push_back(path);
    return;
  }
  for (const CLI::App* sub : subs) {
    std::vector<std::string> deeper = words;
    deeper.push_back(sub->get_name());
    CollectPaths(sub, deeper, out);
  }
}

TEST_CASE("a command line defines only the optional options it names") {
  std::vector<const char*> argv = {"gentle-ai", "review",       "verify", "--lineage",
                                   "review-1",  "--against=v1", "--json"};
  Tree tree(argv, /*filtered=*/true);
  CLI::App* command = tree.review->get_subcommand("verify");
  CHECK(Names(command) == std::vector<std::string>{"--json", "--lineage", "--against"});
  // No argument asks for help: no command has a help flag.
  CHECK(tree.app.get_help_ptr() == nullptr);
  CHECK(tree.review->get_help_ptr() == nullptr);

  // Required options and positional arguments are defined whatever the command line names.
  argv = {"gentle-ai", "review", "verdict", "--body", "b"};
  Tree verdict_tree(argv, /*filtered=*/true);
  CHECK(Names(verdict_tree.review->get_subcommand("verdict")) ==
        std::vector<std::string>{"--lineage", "--verdict", "--role", "--body"});
  argv = {"gentle-ai", "review", "parse-comment"};
  Tree parse_tree(argv, /*filtered=*/true);
  CHECK(Names(parse_tree.review->get_subcommand("parse-comment")) ==
        std::vector<std::string>{"file"});

  // Any other argument starting with '-' defines every option, and the help flags.
  argv = {"gentle-ai", "review", "verify"};
  const std::vector<std::string> every =
      Names(Tree(argv, /*filtered=*/false).review->get_subcommand("verify"));
  CHECK(every.size() == 12);
  CHECK(every.front() == "--help");
  for (const char* other : {"-h", "--help", "--", "-", "-1", "--Lineage", "--lineage_x", "--=x"}) {
    argv = {"gentle-ai", "review", "verify", "--lineage", "x", other};
    Tree other_tree(argv, /*filtered=*/true);
    CHECK(Names(other_tree.review->get_subcommand("verify")) == every);
    CHECK(other_tree.app.get_help_ptr() != nullptr);
  }
}

TEST_CASE("every command parses a generated command line as with every option defined") {
  std::mt19937 random(47);
  int compared = 0, errors = 0, helps = 0, parsed = 0;
  for (const Verb& verb : cli::kReviewVerbs) {
    std::vector<CommandPath> paths;
    {
      Tree full({"gentle-ai", "review", verb.name.data()}, false);
      CollectPaths(full.review->get_subcommand(std::string(verb.name)), {}, &paths);
    }
    for (const CommandPath& path : paths) {
      std::vector<std::string> pool = {"v",         "7",     "-1",        "abc",
                                       "",          "--",    "-h",        "--help",
                                       "--nope",    "--cwd", "--json",    "--json=false",
                                       "--json=x",  "-x",    "--Lineage", "--lineage",
                                       "--against", "--pr",  "=",         "--lineage=--json"};
      for (const std::string& name : path.names) {
        pool.push_back(name);
        pool.push_back(name);
        if (name.rfind("--", 0) == 0) {
          pool.push_back(name + "=v");
          pool.push_back(name + "=");
          pool.push_back(name + "=3");
        }
      }
      for (int round = 0; round < 150; ++round) {
        std::vector<std::string> args = path.words;
        const int count = static_cast<int>(random() % 6);
        for (int i = 0; i < count; ++i) args.push_back(pool[random() % pool.size()]);
        const std::string full = Outcome(verb, args, /*filtered=*/false);
        const std::string filtered = Outcome(verb, args, /*filtered=*/true);
        std::string line = std::string(verb.name);
        for (const std::string& arg : args) line += " '" + arg + "'";
        INFO(line);
        REQUIRE(filtered == full);
        ++compared;
        if (full.rfind("error", 0) == 0) ++errors;
        if (full.rfind("help", 0) == 0) ++helps;
        if (full.rfind("[", 0) == 0) ++parsed;
      }
    }
  }
  // The generated lines reach every outcome.
  CHECK(compared > 4000);
  CHECK(errors > 1000);
  CHECK(helps > 100);
  CHECK(parsed > 500);
}

}  // namespace
}  // namespace gentle::testing
