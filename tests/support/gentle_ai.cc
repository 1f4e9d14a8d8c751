#include "tests/support/gentle_ai.h"

#include "tests/support/git_env.h"

namespace gentle::testing {

RunResult GentleAi(const std::vector<std::string>& args, const std::string& cwd, const Env& env,
                   const std::vector<std::string>& wrapper, int timeout_ms) {
  std::vector<std::string> argv = wrapper;
  argv.push_back(GENTLE_AI_BIN);
  argv.insert(argv.end(), args.begin(), args.end());
  Env merged = GitEnv();
  for (const auto& [k, v] : env) merged[k] = v;
  return Run(argv, cwd, merged, "", timeout_ms);
}

}  // namespace gentle::testing
