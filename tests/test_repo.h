// Test support: temporary directories and running commands with exact byte capture.
//
// TempDir creates a fresh directory under $TMPDIR and removes it recursively when destroyed.
// RunCommand spawns argv (PATH lookup) with the current environment plus `extra_env`, feeds
// `stdin_data`, and returns the exit code with stdout and stderr captured byte for byte.
// OracleEnv() is the environment pin of DESIGN.md section 8 (no system/global config, no
// attributes, C locale) with HOME pointing at an empty directory owned by the process.
#ifndef GENTLE_TESTS_TEST_REPO_H_
#define GENTLE_TESTS_TEST_REPO_H_

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

CommandResult RunCommand(const std::vector<std::string>& argv,
                         const std::vector<std::string>& extra_env = {},
                         const std::string& stdin_data = "", const std::string& cwd = "");

// KEY=VALUE entries pinning git's environment for oracle runs and fixture building.
const std::vector<std::string>& OracleEnv();

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_TEST_REPO_H_
