// RunGit: the user's own `git` as a subprocess, for the verbs that talk to remotes (review push,
// review fetch; docs/format.md). libgit2 in this process never touches the network: git's
// transports, credentials, configuration and hooks are the user's.
//
// Runs `git -C <dir> <args...>` through store::RunProgram: argv executed directly (PATH lookup for
// `git`), never through a shell, with the caller's environment, standard input at end of file,
// and stdout and stderr captured (each up to kMaxGitOutput bytes; the rest is read and dropped).
// Returns git's exit status (128 + the signal number when a signal ended it). `not_found` when git
// cannot be started (not on PATH); `busy` naming `git <verb>` when it runs past
// store::kGitDeadline (it and its process group are killed).
#ifndef GENTLE_TRANSACTION_GIT_CLI_H_
#define GENTLE_TRANSACTION_GIT_CLI_H_

#include <cstddef>
#include <string>
#include <vector>

#include "store/git/repository.h"
#include "store/status.h"

namespace gentle::transaction {

inline constexpr size_t kMaxGitOutput = 16u << 20;

struct GitOutput {
  int exit_code = -1;
  std::string out;
  std::string err;
  // The last non-empty line of stderr (git's own reason), for error messages.
  std::string LastErrorLine() const;
};

Result<GitOutput> RunGit(const std::string& dir, const std::vector<std::string>& args);

// The directory git runs in for `repo`: its worktree root, or its git directory when bare.
std::string GitCliDir(const store::git::Repository& repo);

// `not_found` unless `remote` is a remote git knows in `dir` (`git remote get-url`); the name
// must have passed store::ValidateRemoteName.
Status RequireRemote(const std::string& dir, const std::string& remote);

// The answer when git failed talking to `remote` for `verb` (push, fetch) other than by refusing
// a ref: `not_found` (the remote could not be read or written: transport, authentication, a
// missing repository, a hook), git's last error line in the message, its exit code in details.
Status GitFailed(const std::string& verb, const std::string& remote, const GitOutput& output);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_GIT_CLI_H_
