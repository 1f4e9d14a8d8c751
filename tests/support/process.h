// Running a process in a test: the one way tests and tools start git, strace, cp or the built
// gentle-ai (see gentle_ai.h for the latter), with stdout and stderr captured byte for byte.
//
// Run spawns argv (PATH lookup for argv[0]) in `cwd` (the current directory when empty) with the
// current environment plus `env` (an entry of `env` replaces a variable of the same name), writes
// `stdin_data` to its standard input, and waits for it. It needs no test framework and makes no
// test assertion, so tools and forked test workers may call it. RunResult::exit_code is the exit
// status, 128 + the signal number when a signal ended the process (the shell's convention), and
// -1 when it could not be started (`err` then says so). With a `timeout_ms` above 0, a child still
// running that long after it started is killed with SIGKILL, with every process of its process
// group (the child leads one then): exit_code 137 and `timed_out` set, so a hang fails the
// caller's assertions instead of stalling the suite.
#ifndef GENTLE_TESTS_SUPPORT_PROCESS_H_
#define GENTLE_TESTS_SUPPORT_PROCESS_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gentle::testing {

// Environment variables, name -> value.
using Env = std::map<std::string, std::string>;

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
  bool timed_out = false;
  // stdout parsed as one JSON document; throws std::runtime_error (naming stdout and stderr) when
  // it is not one.
  nlohmann::json Json() const;
};

RunResult Run(const std::vector<std::string>& argv, const std::string& cwd = "",
              const Env& env = {}, const std::string& stdin_data = "", int timeout_ms = 0);

// `s` without trailing whitespace (a command's final newline).
std::string Trim(const std::string& s);

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_PROCESS_H_
