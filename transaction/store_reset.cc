#include "transaction/store_reset.h"

#include "store/fault_point.h"
#include "store/file_io.h"
#include "store/file_write.h"
#include "store/git/repository.h"
#include "store/git/review_refs.h"
#include "store/git/review_refs_write.h"
#include "store/layout.h"
#include "store/secret.h"
#include "store/store_guard.h"
#include "store/store_scan.h"

namespace gentle::transaction {
namespace {

Result<ResetPlan> Plan(const store::git::Repository& repo, const store::StoreLayout& layout) {
  ResetPlan plan;
  plan.root = layout.root();
  GENTLE_RETURN_IF_ERROR(store::CheckNoSymlinks(layout.common_dir(), layout.root()));
  auto names = store::ListDirectory(layout.root());
  if (names.ok()) {
    for (const std::string& name : *names) plan.paths.push_back(layout.root() + "/" + name);
  } else if (names.status().code() != Code::kNotFound) {
    return names.status();
  }
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> histories, store::git::ListHistoryRefs(repo));
  for (const std::string& lineage : histories)
    plan.history_refs.push_back(store::StoreLayout::HistoryRef(lineage));
  return plan;
}

}  // namespace

Result<ResetPlan> ResetStore(const std::string& cwd, bool yes) {
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(cwd));
  const store::StoreLayout layout(repo.common_dir());
  if (!yes) {
    GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForRead(layout));
    return Plan(repo, layout);
  }
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForMaintenance(layout));
  store::FaultPoint("reset:locked");
  GENTLE_ASSIGN_OR_RETURN(ResetPlan plan, Plan(repo, layout));
  // The lock creates v2/; the store is "empty" if nothing else is there.
  GENTLE_ASSIGN_OR_RETURN(std::string suffix, store::RandomHex(6));
  const std::string trash =
      layout.gentle_dir() + "/" + std::string(store::kResetTrashPrefix) + suffix;
  GENTLE_RETURN_IF_ERROR(store::RenameDurable(layout.root(), trash));
  store::FaultPoint("reset:store-moved");
  for (const std::string& ref : plan.history_refs) {
    GENTLE_RETURN_IF_ERROR(
        store::git::DeleteHistoryRef(repo, ref.substr(store::StoreLayout::HistoryRef("").size())));
  }
  store::FaultPoint("reset:unpinned");
  GENTLE_RETURN_IF_ERROR(store::RemoveTree(trash));
  GENTLE_RETURN_IF_ERROR(store::SyncDirectory(layout.gentle_dir()));
  store::FaultPoint("reset:removed");
  plan.performed = true;
  return plan;
}

}  // namespace gentle::transaction
