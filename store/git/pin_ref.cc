#include "store/git/pin_ref.h"

#include <algorithm>

#include "store/git/git_util.h"
#include "store/layout.h"

namespace gentle::store::git {

bool PinRefExists(const Repository& repo, const std::string& lineage) {
  git_reference* ref = nullptr;
  const std::string name = StoreLayout::PinRef(lineage);
  if (git_reference_lookup(&ref, repo.raw(), name.c_str()) != 0) return false;
  git_reference_free(ref);
  return true;
}

Result<std::vector<std::string>> ListPinRefs(const Repository& repo) {
  const std::string prefix = StoreLayout::PinRef("");
  git_reference_iterator* it = nullptr;
  if (git_reference_iterator_glob_new(&it, repo.raw(), (prefix + "*").c_str()) != 0) {
    return Status(Code::kInternal, "cannot list pin refs: " + LastGitError());
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

}  // namespace gentle::store::git
