// The read commands the read-only proof runs (tests/readonly_commands_test.cc hashes the whole git
// common dir before and after each), over the inputs it prepares. One list, so that
// tests/verb_registry_test.cc can require a command here for every verb it classifies as reading.
// Every path is outside the repository: --output files, envelopes, forge JSON and comments.
#ifndef GENTLE_TESTS_SUPPORT_READ_COMMANDS_H_
#define GENTLE_TESTS_SUPPORT_READ_COMMANDS_H_

#include <string>
#include <vector>

namespace gentle::testing {

struct ReadInputs {
  std::vector<std::string> lineages;   // live, damaged and absent lineages to read
  std::vector<std::string> envelopes;  // `export-context --json` outputs written to files
  std::string scratch;                 // a directory outside the repository
  std::string comment;                 // a file holding a posted comment (or any text)
  std::string allowed_signers;         // an allowed signers file (git's format)
};

// The PR the loop's read commands name (the seen ledger, pr-state).
inline constexpr const char* kReadPr = "github:octo-org/widget#42";

// Every read command, each in human and --json form where it has both.
std::vector<std::vector<std::string>> ReadCommands(const ReadInputs& in);

// The command a run names: its leading words up to the first flag or argument that is not a
// subcommand of `leaves` ("review seen check --pr P" -> "review seen check").
std::string CommandOf(const std::vector<std::string>& args, const std::vector<std::string>& leaves);

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_READ_COMMANDS_H_
