// The gentle-ai command line: parses argv with CLI11 and runs the verb it names, whose own file
// (cli/cmd_<verb>.cc) defines its options and renders the result (human or --json) with the
// documented exit code. A command line `review VERB ...` defines that verb's row of the command
// table (cli/verb_table.h) alone; anything else defines every row. No domain logic lives here. No
// exception escapes Run: one that reaches it is reported as `internal` (exit 1), in the JSON error
// envelope under --json.
#ifndef GENTLE_CLI_APP_H_
#define GENTLE_CLI_APP_H_

#include <functional>

#include "cli/verb.h"

namespace CLI {
class App;
}  // namespace CLI

namespace gentle::cli {

int Run(int argc, char** argv);

// Run for a process that exits with the returned code: the command tree (every option's names,
// callbacks and values) is left for the exit to reclaim instead of being torn down one node at a
// time, as git leaves its own structures at exit (its UNLEAK). The tree stays reachable from a
// static, so a leak checker does not report it; a later call frees the earlier tree. The
// executables' main() calls this; anything that runs many command lines in one process calls Run.
// The repository a small export or verify opened is left to the exit the same way
// (store/git/repository.h, ExitReclaimsRepositories).
int RunProcess(int argc, char** argv);

// Defines on `app` (the root, as made with the root's description) what Run parses `argv` with:
// for `review VERB ...` that verb alone, of whose optional options only those argv names when
// `filtered` (cli/verb.h, OptionFilter; with no help flag on any command when no argument is -h
// or --help), every option otherwise; for anything else every verb, `version` and --version.
// `in` receives the options' values; argv outlives both.
void DefineCommandLine(int argc, const char* const* argv, bool filtered, CLI::App* app,
                       Invocation* in);

// Builds the whole command tree that Run parses (every verb, every flag, as `--help` lists them)
// and calls `visit` with its root. The man pages and shell completions are generated from it
// (cli/command_doc.h), so they describe exactly what the parser accepts.
void VisitCommandTree(const std::function<void(const CLI::App& root)>& visit);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_APP_H_
