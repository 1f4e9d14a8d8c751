#include "tests/strace_kill.h"

#include <cstdlib>

namespace gentle::testing::life {

Env TracedCommandEnv() {
  const char* asan = std::getenv("ASAN_OPTIONS");
  const std::string options = asan == nullptr || *asan == '\0' ? "" : std::string(asan) + ":";
  return {{"GENTLE_LOCK_TIMEOUT_MS", "2000"}, {"ASAN_OPTIONS", options + "detect_leaks=0"}};
}

bool StraceWorks() {
  TempDir dir;
  return Exec("strace", {"-f", "-qq", "-o", "/dev/null", "-e", "trace=none", "true"}, dir.path())
             .exit_code == 0;
}

Run ReviewKilledAt(const LifecycleRepo& repo, std::vector<std::string> args,
                   const std::string& path, const std::string& syscall, int n) {
  std::vector<std::string> argv = {
      "-f",          "-qq",
      "-o",          "/dev/null",
      "-P",          path,
      "-e",          "trace=" + syscall,
      "-e",          "inject=" + syscall + ":signal=KILL:when=" + std::to_string(n),
      GENTLE_AI_BIN, "review"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back("--cwd");
  argv.push_back(repo.root());
  argv.push_back("--json");
  return Exec("strace", argv, repo.root(), TracedCommandEnv());
}

}  // namespace gentle::testing::life
