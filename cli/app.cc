#include "cli/app.h"

#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <iostream>
#include <memory>
#include <new>
#include <string_view>

#include "cli/render.h"
#include "cli/verb.h"
#include "cli/verb_table.h"
#include "cli/version_report.h"
#include "store/git/repository.h"
#include "store/status.h"

namespace gentle::cli {
namespace {

constexpr char kAppDescription[] = "gentle-ai: the review transaction store";

bool WantsJson(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0) return true;
  }
  return false;
}

// The row of the verb `gentle-ai review VERB ...` names, or null. Building CLI11 options costs
// about as much as a small export itself (docs/performance.md), so a recognised verb is defined
// alone; anything else (help, a typo, a missing verb) gets the whole table and CLI11's own answer.
const Verb* InvokedVerb(int argc, const char* const* argv) {
  if (argc < 3 || std::strcmp(argv[1], "review") != 0) return nullptr;
  for (const Verb& verb : kReviewVerbs) {
    if (verb.name == argv[2]) return &verb;
  }
  return nullptr;
}

// The --version text: RenderVersionText without its final newline (CLI11 adds one).
std::string VersionFlagText() {
  std::string text = RenderVersionText(CollectVersionReport());
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// The root of the tree: `gentle-ai` and the `review` group, whose verbs (and the root's
// --version) are defined by the caller.
void DefineRoot(CLI::App* app) {
  app->name("gentle-ai");
  app->allow_extras(false);
  app->require_subcommand(1);
}

CLI::App* DefineReviewGroup(CLI::App* app) {
  return AddGroup(app, "review", "Review transactions: freeze, inspect, decide");
}

// Every verb of `review`, the `version` command and --version: the tree help, typos and docs
// see. (Once `review VERB` is parsed, an option the verb does not define is refused, never
// handed back to the root, so a verb defined alone needs no --version.)
void DefineAllCommands(CLI::App* app, CLI::App* review, Invocation* in) {
  for (const Verb& verb : kReviewVerbs) verb.define(review, verb, in);
  for (const Verb& verb : kRootVerbs) verb.define(app, verb, in);
  app->set_version_flag("--version", VersionFlagText, "Print the version of this build and exit");
}

// One command line's parser and the values it fills.
struct CommandTree {
  CLI::App app{kAppDescription};
  Invocation in;
};

int ParseAndRun(CommandTree& tree, int argc, char** argv) {
  CLI::App& app = tree.app;
  Invocation& in = tree.in;
  DefineCommandLine(argc, argv, /*filtered=*/true, &app, &in);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return ReportError(Status(Code::kUsage, e.what()), WantsJson(argc, argv));
  }
  return in.RunChosen();
}

// An exception that reached the edge is a bug: reported as `internal` (exit 1), never an abort.
int ReportEscapedException(const char* what, bool json) {
  return ReportError(Status(Code::kInternal, std::string("unexpected exception: ") + what), json);
}

// The tree of the process's last RunProcess, never destroyed (see cli/app.h).
void KeepUntilExit(std::unique_ptr<CommandTree> tree) {
  static CommandTree* kept = nullptr;
  delete kept;
  kept = tree.release();
}

int RunGuarded(int argc, char** argv, bool keep_tree) {
  try {
    auto tree = std::make_unique<CommandTree>();
    const int exit_code = ParseAndRun(*tree, argc, argv);
    if (keep_tree) KeepUntilExit(std::move(tree));
    return exit_code;
  } catch (const std::bad_alloc&) {
    return ReportEscapedException("out of memory", WantsJson(argc, argv));
  } catch (const std::exception& e) {
    return ReportEscapedException(e.what(), WantsJson(argc, argv));
  } catch (...) {
    return ReportEscapedException("not a std::exception", WantsJson(argc, argv));
  }
}

// `exit_code`, unless standard output refused bytes the command wrote (a full disk, a closed or
// failing descriptor): then `internal` on stderr (stdout cannot carry it, --json or not) and exit 1
// for a command that had succeeded, so no caller reads a short answer as a whole one. A reader
// that closes a pipe early ends the process with SIGPIPE first, as it ends git (or, where SIGPIPE
// is ignored, is no error).
int ExitCheckingStdout(int exit_code) {
  std::cout.flush();
  errno = 0;
  const bool flush_failed = std::fflush(stdout) != 0;
  int err = flush_failed ? errno : 0;
  if (!flush_failed && !std::cout.fail() && std::ferror(stdout) == 0) return exit_code;
  if (exit_code != 0) return exit_code;  // the command's own error is the answer
  if (err == 0) err = StdoutErrno();
  if (err == 0 && fcntl(STDOUT_FILENO, F_GETFD) == -1) err = errno;  // a closed descriptor
  if (err == EPIPE) return exit_code;                                // the reader went away
  const std::string reason = err != 0 ? std::strerror(err) : "a write was refused";
  return ReportError(Status(Code::kInternal, "writing standard output: " + reason),
                     /*json=*/false);
}

}  // namespace

void DefineCommandLine(int argc, const char* const* argv, bool filtered, CLI::App* app,
                       Invocation* in) {
  DefineRoot(app);
  const Verb* verb = InvokedVerb(argc, argv);
  if (verb != nullptr && filtered) {
    in->options = OptionFilter(argc, argv, 3);  // the options `review VERB ...` names
    // No argument can ask for help: no help flag, the root's nor the ones each command copies
    // from its parent when it is made.
    if (!in->options.every()) app->set_help_flag();
  }
  CLI::App* review = DefineReviewGroup(app);
  if (verb != nullptr) {
    verb->define(review, *verb, in);  // a review verb alone: no other verb, `version` or --version
  } else {
    DefineAllCommands(app, review, in);
  }
}

void VisitCommandTree(const std::function<void(const CLI::App& root)>& visit) {
  CLI::App app{kAppDescription};
  DefineRoot(&app);
  CLI::App* review = DefineReviewGroup(&app);
  Invocation in;
  DefineAllCommands(&app, review, &in);
  visit(app);
}

int Run(int argc, char** argv) { return RunGuarded(argc, argv, /*keep_tree=*/false); }

int RunProcess(int argc, char** argv) {
  store::git::ExitReclaimsRepositories();
  return ExitCheckingStdout(RunGuarded(argc, argv, /*keep_tree=*/true));
}

}  // namespace gentle::cli
