#include "export/oracle_runner.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <optional>
#include <vector>

#include "export/git_flags.h"
#include "store/scratch_dir.h"

extern char** environ;

namespace gentle::exporter {
namespace {

// A temporary bare repository skeleton, removed on destruction (store/scratch_dir.h: it cannot
// reach the store).
class ScratchGitDir {
 public:
  ScratchGitDir() : dir_(store::ScratchDir::Create("gentle-ai-oracle-")) {
    ok_ = dir_ && dir_->MakeDirectory("objects") && dir_->MakeDirectory("refs") &&
          dir_->MakeDirectory("home") &&
          dir_->WriteFile("HEAD", "ref: refs/heads/frozen-context\n") &&
          dir_->WriteFile("config", "[core]\n\trepositoryformatversion = 0\n\tbare = true\n");
  }
  bool ok() const { return ok_; }
  const std::string& path() const { return dir_->path(); }

 private:
  std::optional<store::ScratchDir> dir_;
  bool ok_ = false;
};

}  // namespace

Result<std::string> RunOracleDiff(const std::string& common_dir, const std::string& base_tree,
                                  const std::string& candidate_tree, size_t max_bytes) {
  ScratchGitDir scratch;
  if (!scratch.ok()) return Status(Code::kInternal, "cannot create a scratch git directory");
  std::vector<std::string> env_strings = {
      "GIT_DIR=" + scratch.path(),
      "GIT_OBJECT_DIRECTORY=" + common_dir + "/objects",
      "GIT_CONFIG_NOSYSTEM=1",
      "GIT_CONFIG_GLOBAL=/dev/null",
      "GIT_ATTR_NOSYSTEM=1",
      "HOME=" + scratch.path() + "/home",
      "LC_ALL=C",
      "GIT_TERMINAL_PROMPT=0",
      "PATH=" + std::string(std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin")};
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv = OracleArgv(base_tree, candidate_tree);
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);

  int out_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return Status(Code::kInternal, "pipe failed");
  int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, devnull, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, devnull, 2);
  pid_t pid;
  int rc = posix_spawnp(&pid, "git", &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(devnull);
  if (rc != 0) {
    close(out_pipe[0]);
    return Status(Code::kInternal, "cannot run git for --engine git");
  }
  std::string out;
  bool over_budget = false;
  char buffer[65536];
  while (true) {
    ssize_t n = read(out_pipe[0], buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buffer, static_cast<size_t>(n));
    if (out.size() > max_bytes) {
      over_budget = true;
      kill(pid, SIGKILL);
      break;
    }
  }
  close(out_pipe[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (over_budget) {
    return Status(Code::kBudgetExceeded,
                  "the patch exceeds " + std::to_string(max_bytes) + " bytes; nothing exported");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return Status(Code::kObjectsMissing, "git diff could not read the snapshot's objects");
  }
  return out;
}

}  // namespace gentle::exporter
