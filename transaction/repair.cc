#include "transaction/repair.h"

#include <map>
#include <set>

#include "store/fault_point.h"
#include "store/file_io.h"
#include "store/finding.h"
#include "store/git/review_refs.h"
#include "store/history_sync.h"
#include "store/lineage_id.h"
#include "store/record.h"
#include "store/store_scan.h"
#include "transaction/mutation.h"

namespace gentle::transaction {
namespace {

// The fsck finding code of a lineage's history (transaction/fsck.cc), nullopt when in step.
std::optional<std::string> DriftCode(const store::git::Repository& repo,
                                     const store::StoreLayout& layout, const std::string& lineage) {
  auto check = store::CheckHistory(repo, layout, lineage);
  if (!check.ok()) {
    return std::string(store::FindingCodeName(store::FindingCode::kHistoryCorrupted));
  }
  switch (check->drift) {
    case store::HistoryDrift::kNone:
      return std::nullopt;
    case store::HistoryDrift::kAhead:
      return std::string(store::FindingCodeName(store::FindingCode::kHistoryAhead));
    case store::HistoryDrift::kBehind:
      return std::string(store::FindingCodeName(store::FindingCode::kHistoryBehind));
    case store::HistoryDrift::kMissing:
      return std::string(store::FindingCodeName(store::FindingCode::kHistoryRefMissing));
    case store::HistoryDrift::kOrphan:
      return std::string(store::FindingCodeName(store::FindingCode::kHistoryRefOrphan));
    case store::HistoryDrift::kLegacyPin:
      return std::string("legacy_pin");  // not a finding: the next write upgrades it
  }
  return std::nullopt;
}

// Every lineage with a history ref or a lineage directory.
Result<std::set<std::string>> AllLineages(const store::git::Repository& repo,
                                          const store::StoreLayout& layout,
                                          store::Progress* progress) {
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> refs, store::git::ListHistoryRefs(repo));
  std::set<std::string> out(refs.begin(), refs.end());
  if (store::KindOf(layout.root()) == store::PathKind::kDirectory) {
    GENTLE_ASSIGN_OR_RETURN(store::StoreFiles files,
                            store::ScanStoreFiles(layout, store::ScanDepth::kEntries, progress));
    for (const auto& row : files.rows.lineages) out.insert(row.lineage_id);
  }
  return out;
}

// The lineage's catalog row as the files say after its history was repaired: a sync commit of a
// lineage that had no history gives the creation time the files now name, which the row must
// match for fsck (a committed row is rewritten; a lineage without a record has none).
Status RefreshCatalogRow(MutationScope* scope, const std::string& lineage) {
  auto record = store::LoadRecord(scope->layout, lineage);
  if (!record.ok()) return Status::Ok();
  store::index::LineageRow row = store::LineageRowOf(*record, store::index::RowStatus::kCommitted);
  row.created_at = store::CreationTimes(&scope->repo).Of(*record);
  return scope->index->UpsertLineage(row);
}

}  // namespace

Result<RepairReport> Repair(const std::string& cwd, const std::optional<std::string>& lineage,
                            store::Progress* progress) {
  if (lineage) GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(*lineage));
  RepairReport report;
  {
    // Nothing to repair, and nothing is created, without a store or a history ref.
    GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(cwd));
    const store::StoreLayout layout(repo.common_dir());
    GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> refs, store::git::ListHistoryRefs(repo));
    if (refs.empty() && store::KindOf(layout.root()) == store::PathKind::kMissing) return report;
  }
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<MutationScope> scope, LockStore(cwd, LockKind::kWriter));
  store::FaultPoint("repair:locked");
  const store::git::Repository& repo = scope->repo;
  const store::StoreLayout& layout = scope->layout;
  std::set<std::string> lineages;
  if (lineage) {
    lineages.insert(*lineage);
  } else {
    GENTLE_ASSIGN_OR_RETURN(lineages, AllLineages(repo, layout, progress));
  }
  // What fsck would report, before anything moves (opening the index may roll a tip back).
  std::map<std::string, std::string> found;
  store::ProgressPhase checking(progress, "histories checked", lineages.size());
  for (const std::string& each : lineages) {
    checking.Next();
    if (auto code = DriftCode(repo, layout, each)) found.emplace(each, *code);
  }
  checking.Done();
  // Nothing out of step and nothing to recover: nothing is opened for writing (not even the
  // index). A prepared row (an interrupted mutation) is recovered, so fsck is clean after.
  if (found.empty()) {
    GENTLE_ASSIGN_OR_RETURN(bool recover, NeedsRecovery(layout));
    if (recover) GENTLE_RETURN_IF_ERROR(OpenIndex(scope.get()));
    return report;
  }
  GENTLE_RETURN_IF_ERROR(OpenIndex(scope.get()));
  store::ProgressPhase repairing(progress, "histories repaired", found.size());
  for (const auto& [each, code] : found) {
    repairing.Next();
    RepairEntry entry;
    entry.lineage = each;
    entry.found = code;
    bool rolled_back = false;
    if (code != store::FindingCodeName(store::FindingCode::kHistoryCorrupted)) {
      GENTLE_ASSIGN_OR_RETURN(store::HistoryRepair repaired,
                              store::RepairHistory(repo, layout, each));
      rolled_back = repaired.rolled_back;
      if (repaired.synced) entry.actions.push_back("synced");
      if (!repaired.sync_status.ok()) entry.error = repaired.sync_status.message();
      if (repaired.synced) GENTLE_RETURN_IF_ERROR(RefreshCatalogRow(scope.get(), each));
    }
    entry.left = DriftCode(repo, layout, each);
    // The index's recovery may have rolled the tip back already; either way it went back.
    if (rolled_back ||
        (code == store::FindingCodeName(store::FindingCode::kHistoryAhead) && entry.left != code)) {
      entry.actions.insert(entry.actions.begin(), "rolled_back");
    }
    report.lineages.push_back(std::move(entry));
  }
  repairing.Done();
  return report;
}

}  // namespace gentle::transaction
