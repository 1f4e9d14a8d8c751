#include "store/git/review_refs_write.h"

#include "store/file_io.h"
#include "store/git/git_file_check.h"
#include "store/git/git_util.h"
#include "store/git/review_refs.h"
#include "store/layout.h"
#include "store/writer_owner.h"

namespace gentle::store::git {
Status DeleteHistoryRef(const Repository& repo, const std::string& lineage) {
  const std::string name = StoreLayout::HistoryRef(lineage);
  GENTLE_RETURN_IF_ERROR(CheckRefFile(repo, name));
  git_reference* ref = nullptr;
  if (git_reference_lookup(&ref, repo.raw(), name.c_str()) != 0) return Status::Ok();
  // Named in the writer's owner record before libgit2 locks them (store/writer_owner.h).
  auto intent = RefWriteIntent::Record({name, "packed-refs"});
  if (!intent.ok()) {
    git_reference_free(ref);
    return intent.status();
  }
  int rc = git_reference_delete(ref);
  git_reference_free(ref);
  if (rc == GIT_ELOCKED) return RefLockedStatus(repo, name);
  if (rc != 0) return Status(Code::kInternal, "cannot delete " + name + ": " + LastGitError());
  return Status::Ok();
}

Status DeleteHistoryRefUnlessLocked(const Repository& repo, const std::string& lineage) {
  Status deleted = DeleteHistoryRef(repo, lineage);
  if (deleted.code() == Code::kBusy) return Status::Ok();
  return deleted;
}

}  // namespace gentle::store::git
