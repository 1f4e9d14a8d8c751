// CliScratch: the scratch repository the CLI fuzz target runs every command in.
//
// Created once per process (first use) under $TMPDIR with fixtures/make-demo-repo.sh plus an edited
// tracked text file, an edited binary file and an untracked file, one lineage started on that
// candidate and its context envelope written beside the repository, so `start`, `status`,
// `export-context` and `verify` all have something to work on (the fuzz input names them with the
// tokens @lineage and @envelope). The process's working directory is moved into the repository and
// GENTLE_LOCK_TIMEOUT_MS is pinned to 100 so a held lock can never turn into a hang. The directory
// is removed at a normal exit and left behind after a crash (for the post-mortem); its path is
// printed once on stderr.
#ifndef GENTLE_FUZZ_CLI_SCRATCH_H_
#define GENTLE_FUZZ_CLI_SCRATCH_H_

#include <string>

namespace gentle::fuzz {

struct CliScratch {
  std::string dir;       // everything the fuzzed commands may write lies below this directory
  std::string repo;      // dir + "/repo", the worktree every command runs in
  std::string lineage;   // the lineage started in repo
  std::string envelope;  // dir + "/envelope.json", its export-context --json
};

// The process-wide scratch; aborts the process if it cannot be built (a setup error, not a
// finding).
const CliScratch& GetCliScratch();

}  // namespace gentle::fuzz

#endif  // GENTLE_FUZZ_CLI_SCRATCH_H_
