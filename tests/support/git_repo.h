// Git fixture repositories for Catch tests: git under GitEnv(), a small committed repository, and
// loose-object surgery. Git and InitRepo fail the running test when a git step fails.
#ifndef GENTLE_TESTS_SUPPORT_GIT_REPO_H_
#define GENTLE_TESTS_SUPPORT_GIT_REPO_H_

#include <string>
#include <vector>

#include "tests/support/process.h"

namespace gentle::testing {

// git -c protocol.file.allow=always <args> in `repo`, under GitEnv() plus `env`, `input` on its
// standard input.
RunResult GitRun(const std::string& repo, const std::vector<std::string>& args, const Env& env = {},
                 const std::string& input = "");
// The same, failing the test unless git exits 0; returns its stdout.
std::string Git(const std::string& repo, const std::vector<std::string>& args);

// A new repository with one commit ("a.txt", "dir/b.txt"); returns its worktree path.
std::string InitRepo(const std::string& parent, const std::string& name = "repo");

// The candidate tree git itself computes for `repo`'s workspace: a copy of its index, `git add -u`
// and `git add -f` of each of `untracked`, then `git write-tree` (the user's index is untouched).
std::string OracleWorkspaceTree(const std::string& repo, const std::vector<std::string>& untracked);

// `git diff-tree -r --name-only --no-renames --ignore-submodules=none base candidate`: the changed
// paths, sorted bytewise, each once.
std::vector<std::string> OraclePaths(const std::string& repo, const std::string& base,
                                     const std::string& candidate);

// Replaces the trailing SHA-1 of an index file's bytes by the checksum of the bytes before it,
// after a test edited them.
void RechecksumIndex(std::string* index_bytes);

// The loose object file of `hex` under the git directory `git_dir`.
std::string LooseObjectPath(const std::string& git_dir, const std::string& hex);

// Overwrites the loose file of `victim` with the loose file of `donor`: a valid zlib stream of a
// valid object, just not the one `victim` names (what a swapped or tampered object looks like).
void ReplaceLooseObject(const std::string& git_dir, const std::string& victim,
                        const std::string& donor);

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_GIT_REPO_H_
