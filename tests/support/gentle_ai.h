// Running the built gentle-ai-test (the CLI with the test build's env hooks, GENTLE_AI_BIN): the
// one way tests start the binary.
//
// GentleAi runs `<wrapper...> gentle-ai-test <args...>` in `cwd` under GitEnv() plus `env` (an
// entry of `env` wins). `wrapper` is a command prefix such as `timeout -k 5 60` or an strace
// invocation; empty runs the binary directly. `timeout_ms` as Run's. No test assertion, so a forked
// worker may call it.
#ifndef GENTLE_TESTS_SUPPORT_GENTLE_AI_H_
#define GENTLE_TESTS_SUPPORT_GENTLE_AI_H_

#include <string>
#include <vector>

#include "tests/support/process.h"

namespace gentle::testing {

RunResult GentleAi(const std::vector<std::string>& args, const std::string& cwd,
                   const Env& env = {}, const std::vector<std::string>& wrapper = {},
                   int timeout_ms = 0);

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_GENTLE_AI_H_
