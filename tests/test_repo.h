// Test support: temporary directories, running processes (git, the built gentle-ai) with exact
// capture of stdout and stderr, and hashing a directory tree to prove a command changed nothing.
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

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs argv[0] (looked up in PATH) in `cwd` with extra environment variables; waits for it.
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

void WriteFile(const std::string& path, const std::string& bytes);
std::string ReadFile(const std::string& path);

// A new repository with one commit ("a.txt", "dir/b.txt"); returns its worktree path.
std::string InitRepo(const std::string& parent, const std::string& name = "repo");

// path -> sha256 of content (symlinks: of their target text; directories listed as entries), for
// every entry below `root`. Equal maps mean no byte, name or link changed.
std::map<std::string, std::string> HashTree(const std::string& root);

std::string Trim(const std::string& s);

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_TEST_REPO_H_
