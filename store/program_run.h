// RunProgram: runs an external program (the user's ssh-keygen for signed approvals, docs/format.md)
// with an exec argv, no shell, and collects what it prints.
//
// argv[0] is looked up on PATH (posix_spawnp). The child inherits the environment (ssh-agent's
// SSH_AUTH_SOCK, HOME) and the working directory; `input` is written to its stdin, which is then
// closed; stdout and stderr are read in full, each up to 1 MiB (the rest is dropped). A program
// that cannot be started is `not_found` (message: why); otherwise the result holds its exit code
// (128 + the signal number when a signal ended it). The caller decides what a failure means.
#ifndef GENTLE_STORE_PROGRAM_RUN_H_
#define GENTLE_STORE_PROGRAM_RUN_H_

#include <string>
#include <string_view>
#include <vector>

#include "store/status.h"

namespace gentle::store {

struct ProgramOutput {
  int exit_code = 0;
  std::string out;
  std::string err;
};

Result<ProgramOutput> RunProgram(const std::vector<std::string>& argv, std::string_view input);

}  // namespace gentle::store

#endif  // GENTLE_STORE_PROGRAM_RUN_H_
