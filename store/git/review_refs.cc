#include "store/git/review_refs.h"

#include <algorithm>

#include "store/file_io.h"
#include "store/git/git_file_check.h"
#include "store/git/git_util.h"
#include "store/layout.h"

namespace gentle::store::git {

Result<std::vector<std::string>> ListHistoryRefs(const Repository& repo) {
  const std::string prefix = StoreLayout::HistoryRef("");
  GENTLE_RETURN_IF_ERROR(CheckRefFiles(repo, prefix));
  git_reference_iterator* it = nullptr;
  if (git_reference_iterator_glob_new(&it, repo.raw(), (prefix + "*").c_str()) != 0) {
    return Status(Code::kInternal, "cannot list history refs: " + LastGitError());
  }
  std::vector<std::string> out;
  const char* name = nullptr;
  while (git_reference_next_name(&name, it) == 0) {
    std::string full(name);
    if (full.compare(0, prefix.size(), prefix) == 0) out.push_back(full.substr(prefix.size()));
  }
  git_reference_iterator_free(it);
  std::sort(out.begin(), out.end());
  return out;
}

std::string LineageOfRef(const std::string& name) {
  const std::string prefix = StoreLayout::HistoryRef("");
  if (name.compare(0, prefix.size(), prefix) != 0) return "";
  return name.substr(prefix.size());
}

Status RefLockedStatus(const Repository& repo, const std::string& name) {
  std::string lock = repo.common_dir() + "/" + name + ".lock";
  if (KindOf(lock) == PathKind::kMissing) {
    const std::string packed = repo.common_dir() + "/packed-refs.lock";
    if (KindOf(packed) != PathKind::kMissing) lock = packed;
  }
  return Status(Code::kBusy, name + " is locked by " + lock +
                                 ": a git command holds it, or one was stopped while holding it "
                                 "(remove the file if no git command is running)")
      .WithLineage(LineageOfRef(name))
      .WithDetail(DetailKey::kLock, lock);
}

}  // namespace gentle::store::git
