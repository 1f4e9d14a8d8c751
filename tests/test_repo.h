// Test support: temporary directories, running processes (git, the built gentle-ai) with exact
// capture of stdout and stderr, and hashing a directory tree to prove a command changed nothing.
//
// TempDir, RunCommand and OracleEnv (test_repo.cc) need no test framework, so tools link them too.
// TempDir creates a fresh directory and removes it recursively when destroyed. RunCommand spawns
// argv (PATH lookup) with the current environment plus `extra_env`, feeds `stdin_data`, and returns
// the exit code with stdout and stderr captured byte for byte. OracleEnv() is the environment pin
// of DESIGN.md section 8 (no system/global config, no attributes, C locale, an empty HOME). The
// rest (repo_fixture.cc) are Catch2 helpers that fail the running test when a step fails.
#ifndef GENTLE_TESTS_TEST_REPO_H_
#define GENTLE_TESTS_TEST_REPO_H_

#include <map>
#include <string>
#include <vector>

namespace gentle::testing {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct CommandResult {
  int exit_code = -1;  // -1 when the process did not exit normally
  std::string out;
  std::string err;
};
using RunResult = CommandResult;

CommandResult RunCommand(const std::vector<std::string>& argv,
                         const std::vector<std::string>& extra_env = {},
                         const std::string& stdin_data = "", const std::string& cwd = "");

// KEY=VALUE entries pinning git's environment for oracle runs and fixture building.
const std::vector<std::string>& OracleEnv();

// Runs argv in `cwd` with extra environment variables.
RunResult Run(const std::vector<std::string>& argv, const std::string& cwd,
              const std::map<std::string, std::string>& env = {});

// git with a pinned identity and no user or system configuration; fails the test when git fails.
std::string Git(const std::string& repo, const std::vector<std::string>& args);
// The same, returning the full result instead of failing.
RunResult GitRun(const std::string& repo, const std::vector<std::string>& args,
                 const std::map<std::string, std::string>& env = {});

// The built gentle-ai executable.
RunResult GentleAi(const std::vector<std::string>& args, const std::string& cwd,
                   const std::map<std::string, std::string>& env = {});

// Creates missing parent directories.
void WriteFile(const std::string& path, const std::string& bytes);
std::string ReadFile(const std::string& path);

// A new repository with one commit ("a.txt", "dir/b.txt"); returns its worktree path.
std::string InitRepo(const std::string& parent, const std::string& name = "repo");

// path -> sha256 of content (symlinks: of their target text; directories listed as entries), for
// every entry below `root`. Equal maps mean no byte, name or link changed.
std::map<std::string, std::string> HashTree(const std::string& root);

std::string Trim(const std::string& s);

// The loose object file of `hex` under the git directory `git_dir`.
std::string LooseObjectPath(const std::string& git_dir, const std::string& hex);

// Overwrites the loose file of `victim` with the loose file of `donor`: a valid zlib stream of a
// valid object, just not the one `victim` names (what a swapped or tampered object looks like).
void ReplaceLooseObject(const std::string& git_dir, const std::string& victim,
                        const std::string& donor);

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_TEST_REPO_H_
