#include "tests/support/strace_kill.h"

#include <cstdlib>

#include "tests/support/gentle_ai.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {

Env TracedCommandEnv() {
  const char* asan = std::getenv("ASAN_OPTIONS");
  const std::string options = asan == nullptr || *asan == '\0' ? "" : std::string(asan) + ":";
  return {{"GENTLE_LOCK_TIMEOUT_MS", "2000"}, {"ASAN_OPTIONS", options + "detect_leaks=0"}};
}

bool StraceWorks() {
  TempDir dir;
  return Run({"strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=none", "true"}, dir.path())
             .exit_code == 0;
}

RunResult ReviewKilledAt(const LifecycleRepo& repo, const std::vector<std::string>& args,
                         const std::string& path, const std::string& syscall, int n,
                         const Env& env) {
  std::vector<std::string> strace = {"strace", "-f", "-qq", "-o", "/dev/null"};
  if (!path.empty()) strace.insert(strace.end(), {"-P", path});
  strace.insert(strace.end(), {"-e", "trace=" + syscall, "-e",
                               "inject=" + syscall + ":signal=KILL:when=" + std::to_string(n)});
  Env all = TracedCommandEnv();
  for (const auto& [key, value] : env) all[key] = value;
  return GentleAi(repo.ReviewArgs(args), repo.root(), all, strace);
}

}  // namespace gentle::testing
