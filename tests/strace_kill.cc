#include "tests/strace_kill.h"

namespace gentle::testing::life {

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
  return Exec("strace", argv, repo.root(), {{"GENTLE_LOCK_TIMEOUT_MS", "2000"}});
}

}  // namespace gentle::testing::life
