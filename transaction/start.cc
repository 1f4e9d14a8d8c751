#include "transaction/start.h"

#include <nlohmann/json.hpp>

#include "store/clock.h"
#include "store/digests.h"
#include "store/fault_point.h"
#include "store/file_io.h"
#include "store/file_modes.h"
#include "store/file_write.h"
#include "store/generated_paths.h"
#include "store/git/memory_writes.h"
#include "store/git/repository.h"
#include "store/go_json.h"
#include "store/history_ref.h"
#include "store/history_verb.h"
#include "store/index/index_sync.h"
#include "store/layout.h"
#include "store/record.h"
#include "store/review_state.h"
#include "store/round_budget.h"
#include "store/snapshot.h"
#include "store/store_guard.h"
#include "store/store_scan.h"
#include "store/tombstone.h"
#include "transaction/candidate_budget.h"
#include "transaction/capture.h"
#include "transaction/generated_marks.h"
#include "transaction/history_writer.h"
#include "transaction/mutation.h"
#include "transaction/pr_lineage.h"
#include "transaction/reviewer_budget.h"
#include "transaction/revise.h"
#include "transaction/target_claims.h"

namespace gentle::transaction {
namespace {

nlohmann::ordered_json SelectorJson(const Selector& s) {
  nlohmann::ordered_json j;
  j["kind"] = s.kind;
  if (s.staged) j["projection"] = "staged";
  if (!s.base.empty()) j["base"] = s.base;
  if (!s.head.empty()) j["head"] = s.head;
  j["intended_untracked"] = s.untracked;
  return j;
}

nlohmann::ordered_json InitialState(const std::string& lineage, const store::Snapshot& snapshot,
                                    const Selector& selector,
                                    const std::string& worktree_identity) {
  nlohmann::ordered_json state;
  state["schema"] = store::kStateSchema;
  state["lineage_id"] = lineage;
  state["generation"] = 1;
  state["state"] = store::ReviewStateName(store::ReviewState::kReviewing);
  store::SnapshotToJson(snapshot, &state["initial_snapshot"]);
  store::SnapshotToJson(snapshot, &state["current_snapshot"]);
  state["genesis_paths"] = snapshot.paths;
  nlohmann::ordered_json& atomic = state["initial_atomic_start"];
  atomic["lineage_id"] = lineage;
  atomic["worktree_identity"] = worktree_identity;
  atomic["target_identity"] = snapshot.identity;
  atomic["selector"] = SelectorJson(selector);
  return state;
}

StartResult ResultOf(const store::RecordView& record, bool created) {
  return StartResult{record.lineage_id,
                     record.revision,
                     record.current_snapshot.identity,
                     record.state,
                     record.initial_snapshot.kind,
                     record.initial_snapshot.paths.size(),
                     created};
}

// One live lineage per PR (transaction/pr_lineage.h): when no lineage holds the candidate as it
// is (neither its own derived lineage nor a claimant), the live lineage of this worktree that
// holds the same PR; nothing otherwise. Read under the shared lock.
Result<std::optional<store::RecordView>> PrLineageOtherwise(const store::git::Repository& repo,
                                                            const store::StoreLayout& layout,
                                                            const Selector& selector,
                                                            const store::Snapshot& snapshot,
                                                            const std::string& lineage) {
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard shared, store::StoreGuard::ForRead(layout));
  auto existing = store::LoadRecord(layout, lineage);
  if (existing.ok() || existing.status().code() != Code::kNotFound) {
    return std::optional<store::RecordView>();
  }
  const std::string here = repo.WorktreeIdentity();
  GENTLE_ASSIGN_OR_RETURN(std::optional<store::RecordView> claimant,
                          FindClaimant(layout, snapshot.identity, here, lineage));
  if (claimant) return std::optional<store::RecordView>();
  return FindPrLineage(repo, layout, selector, here);
}

}  // namespace

Result<StartResult> Start(const StartRequest& request) {
  GENTLE_RETURN_IF_ERROR(ValidateSelector(request.selector));
  GENTLE_ASSIGN_OR_RETURN(RoundContextBinding binding, ReadContextBinding(request.context));
  Selector selector = request.selector;
  if (request.context.context_file) selector.ledger_ids = binding.ledger_ids;
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo,
                          store::git::Repository::Discover(request.cwd));
  GENTLE_RETURN_IF_ERROR(repo.RequireWorktree("review start"));
  const store::StoreLayout layout(repo.common_dir());
  // Before the capture writes objects: a store the guard would refuse costs no object write.
  GENTLE_RETURN_IF_ERROR(store::PreflightWrite(layout));

  // The candidate's objects are held in memory until it is accepted: a refusal up to the budget
  // check writes nothing, not even an object.
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<store::git::MemoryWrites> held,
                          store::git::MemoryWrites::Divert(repo.raw()));
  GENTLE_ASSIGN_OR_RETURN(store::Snapshot snapshot, CaptureSnapshot(repo, selector, held.get()));
  if (snapshot.paths.empty()) {
    return Status(Code::kUsage, "nothing to review: the candidate has no changed paths");
  }
  for (const std::string& path : snapshot.paths) {
    if (!store::IsValidUtf8(path)) {
      return Status(Code::kUsage,
                    "a changed path is not valid UTF-8 and cannot be recorded: " + path);
    }
  }
  // Marked now, from the candidate tree, and frozen in the round's history commit with the
  // round's budget; an entry no part of the reviewer's view could hold is refused first.
  GENTLE_ASSIGN_OR_RETURN(const std::vector<std::string> marked,
                          MarkGenerated(repo.raw(), snapshot));
  const uint64_t budget = request.max_bytes.value_or(store::kDefaultRoundBudgetBytes);
  GENTLE_RETURN_IF_ERROR(RefuseUnsplittableCandidate(repo, snapshot, marked, budget));
  const std::string generated = store::EncodeGeneratedPaths(marked);
  GENTLE_RETURN_IF_ERROR(held->Flush());
  const std::string worktree_identity = repo.WorktreeIdentity();
  const std::string lineage = store::DerivedLineageId(worktree_identity, snapshot.identity);

  GENTLE_ASSIGN_OR_RETURN(std::optional<store::RecordView> pr,
                          PrLineageOtherwise(repo, layout, selector, snapshot, lineage));
  if (pr) {
    if (!pr->state.Is(store::ReviewState::kCorrectionRequired)) {
      return ResultOf(*pr, false);
    }
    // The PR's lineage was sent back: its next round takes the new head or context.
    GENTLE_ASSIGN_OR_RETURN(ReviseResult revised, Revise({request.cwd, pr->lineage_id, pr->revision,
                                                          request.context, request.max_bytes}));
    return StartResult{revised.lineage,
                       revised.revision,
                       revised.target_identity,
                       revised.state,
                       pr->initial_snapshot.kind,
                       revised.changed_path_count,
                       false};
  }

  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForWrite(layout));
  store::FaultPoint("start:locked");
  auto existing = store::LoadRecord(layout, lineage);
  bool claimed = false;
  if (!existing.ok() && existing.status().code() == Code::kNotFound) {
    // Another lineage of this worktree whose current round is this candidate (a revised one)
    // already claims it: that lineage is the answer, not a second claim on the same target.
    GENTLE_ASSIGN_OR_RETURN(std::optional<store::RecordView> claimant,
                            FindClaimant(layout, snapshot.identity, worktree_identity, lineage));
    if (claimant) {
      existing = std::move(*claimant);
      claimed = true;
    }
  }
  if (existing.ok()) {
    if (!claimed && existing->initial_snapshot.identity != snapshot.identity) {
      return Status(Code::kAmbiguous, "lineage " + lineage + " already holds another candidate")
          .WithLineage(lineage);
    }
    // Nothing to write for this lineage, but a writer holds the lock: an interrupted mutation
    // (a prepared row, or an index a reader cannot use) is recovered here as by every other
    // writer, and the answer is the record as it is afterwards. A store with nothing to recover
    // is left byte-identical.
    GENTLE_RETURN_IF_ERROR(CheckSameBinding(repo, *existing, binding));
    if (request.max_bytes) GENTLE_RETURN_IF_ERROR(CheckSameBudget(repo, *existing, budget));
    GENTLE_ASSIGN_OR_RETURN(bool recover, NeedsRecovery(layout));
    if (!recover) return ResultOf(*existing, false);
    GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<store::index::IndexDb> recovered,
                            store::index::OpenIndexForWriter(repo, layout));
    auto current = store::LoadRecord(layout, existing->lineage_id);
    if (!claimed) {
      if (!current.ok()) return current.status();
      return ResultOf(*current, false);
    }
    if (current.ok() && current->current_snapshot.identity == snapshot.identity) {
      return ResultOf(*current, false);
    }
    // The claim was an interrupted revise, now undone: the candidate starts its own lineage.
    existing = store::LoadRecord(layout, lineage);
  }
  if (existing.status().code() != Code::kNotFound) return existing.status();

  GENTLE_RETURN_IF_ERROR(
      store::RefuseBurnedCandidate(layout, repo.worktree_root(), snapshot.identity, lineage));
  if (!snapshot.ledger_ids.empty()) {
    // The same trees, burned after a round bound to another context (transaction/burn.h).
    store::Snapshot trees = snapshot;
    trees.ledger_ids.clear();
    GENTLE_RETURN_IF_ERROR(store::RefuseBurnedCandidate(
        layout, repo.worktree_root(), store::ComputeSnapshotIdentity(trees), lineage));
  }

  // Every refusal above changed nothing; from here on the store is written. Opening the index
  // for writing first recovers interrupted mutations (and rebuilds a missing or corrupt index).
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<store::index::IndexDb> index,
                          store::index::OpenIndexForWriter(repo, layout));
  std::string revision;
  const std::string now = store::NowRfc3339();
  const std::string file = store::EncodeRecordFile(
      InitialState(lineage, snapshot, request.selector, worktree_identity), &revision);
  GENTLE_ASSIGN_OR_RETURN(store::RecordView written, store::ParseRecordFile(file, lineage));
  // Prepared row, file work, committed row (docs/index.md): a crash before the record is written
  // leaves a prepared row that the next writer undoes (history tip and empty directory included).
  // The record has no time member (gentle-ai's CompactState has none): the creation time is the
  // history's Created-At and the index row's.
  store::index::LineageRow row = store::LineageRowOf(written, store::index::RowStatus::kPrepared);
  row.created_at = now;
  GENTLE_RETURN_IF_ERROR(index->UpsertLineage(row));
  store::FaultPoint("start:index-prepared");
  // The history's start commit (a lineage started again after an abandon continues its history).
  store::HistoryCommitSpec history;
  history.verb = store::HistoryVerb::kStart;
  history.lineage = lineage;
  history.record_file = file;
  history.revision = written.revision;
  history.state = written.state;
  history.base_tree = snapshot.base_tree;
  history.candidate_tree = snapshot.candidate_tree;
  history.at = now;
  history.created_at = now;
  AddToHistoryCommit(binding, &history);
  AddGeneratedPaths(generated, &history);
  AddRoundBudget(budget, &history);
  GENTLE_RETURN_IF_ERROR(AppendHistory(repo, layout, std::move(history)));
  GENTLE_RETURN_IF_ERROR(store::EnsureDirectory(layout.common_dir(), layout.lineage_dir(lineage),
                                                store::kStoreDirMode));
  store::FaultPoint("start:lineage-dir");
  GENTLE_RETURN_IF_ERROR(
      store::WriteFileAtomic(layout.record_path(lineage), file, store::kRecordFileMode));
  store::FaultPoint("start:record-written");
  GENTLE_RETURN_IF_ERROR(
      index->CommitStepTransaction([&] { return index->MarkLineageCommitted(lineage); }));
  store::FaultPoint("start:index-committed");
  return ResultOf(written, true);
}

}  // namespace gentle::transaction
