#include "transaction/index_rebuild.h"

#include <set>

#include "store/fault_point.h"
#include "store/file_io.h"
#include "store/file_write.h"
#include "store/finding.h"
#include "store/git/repository.h"
#include "store/store_scan.h"
#include "transaction/mutation.h"

namespace gentle::transaction {
namespace {

// Removes the `.atomic-*` temp files fsck reports as `interrupted_write`: the unpublished residue
// of writes that never renamed into place. The caller holds the writer lock, so no live write
// owns one.
Status RemoveInterruptedWrites(const store::StoreLayout& layout) {
  GENTLE_ASSIGN_OR_RETURN(store::StoreFiles files,
                          store::ScanStoreFiles(layout, store::ScanDepth::kEveryMember));
  std::set<std::string> dirs;
  for (const store::Finding& finding : files.findings) {
    if (finding.code != store::FindingCode::kInterruptedWrite ||
        store::KindOf(finding.path) != store::PathKind::kFile) {
      continue;
    }
    GENTLE_RETURN_IF_ERROR(store::RemoveTree(finding.path));
    dirs.insert(store::ParentOf(finding.path));
  }
  for (const std::string& dir : dirs) GENTLE_RETURN_IF_ERROR(store::SyncDirectory(dir));
  return Status::Ok();
}

}  // namespace

Result<store::index::RebuildReport> RebuildIndexCommand(const std::string& cwd,
                                                        store::Progress* progress) {
  {
    // Refused before anything is created, as start is: a bare repository has no worktree.
    GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(cwd));
    GENTLE_RETURN_IF_ERROR(repo.RequireWorktree("review index rebuild"));
  }
  // Exclusive, as burn and store reset: no reader has the old index open while it is replaced.
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<MutationScope> scope,
                          LockStore(cwd, LockKind::kMaintenance));
  store::FaultPoint("index-rebuild:locked");
  GENTLE_RETURN_IF_ERROR(RemoveInterruptedWrites(scope->layout));
  return store::index::RebuildIndex(scope->repo, scope->layout, progress);
}

}  // namespace gentle::transaction
