#include "export/oracle_runner.h"

#include <stdlib.h>

#include <optional>
#include <utility>
#include <vector>

#include "export/git_flags.h"
#include "store/program_run.h"
#include "store/scratch_dir.h"

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
  store::ProgramRequest request;
  request.argv = OracleArgv(base_tree, candidate_tree);
  request.environment = &env_strings;
  request.max_capture = max_bytes;
  request.stop_past_capture = true;
  request.deadline = store::kGitDiffDeadline;
  request.name = "git diff (--engine git)";
  auto run = store::RunProgram(request);
  if (!run.ok()) {
    if (run.status().code() == Code::kNotFound) {
      return Status(Code::kInternal, "cannot run git for --engine git");
    }
    return run.status();
  }
  if (run->truncated) {
    return Status(Code::kBudgetExceeded,
                  "the patch exceeds " + std::to_string(max_bytes) + " bytes; nothing exported");
  }
  if (run->exit_code != 0) {
    return Status(Code::kObjectsMissing, "git diff could not read the snapshot's objects");
  }
  return std::move(run->out);
}

}  // namespace gentle::exporter
