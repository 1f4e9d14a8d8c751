#include "transaction/config_flag.h"

#include <git2.h>

#include "store/git/git_util.h"

namespace gentle::transaction {

Result<bool> ConfigFlag(const store::git::Repository& repo, const char* key) {
  git_config* snapshot = nullptr;
  if (git_repository_config_snapshot(&snapshot, repo.raw()) != 0) {
    return Status(Code::kInternal,
                  "cannot read the git configuration: " + store::git::LastGitError());
  }
  const store::git::GitPtr<git_config, git_config_free> config(snapshot);
  int value = 0;
  const int rc = git_config_get_bool(&value, config.get(), key);
  if (rc == GIT_ENOTFOUND) return false;
  if (rc != 0) {
    return Status(Code::kUsage, std::string("git config ") + key +
                                    " is not a boolean: " + store::git::LastGitError());
  }
  return value != 0;
}

}  // namespace gentle::transaction
