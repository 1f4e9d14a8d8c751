#include "transaction/revise.h"

#include "store/clock.h"
#include "store/digests.h"
#include "store/fault_point.h"
#include "store/file_io.h"
#include "store/generated_paths.h"
#include "store/git/memory_writes.h"
#include "store/go_json.h"
#include "store/layout.h"
#include "store/lineage_id.h"
#include "store/record.h"
#include "store/review_state.h"
#include "store/store_guard.h"
#include "store/tombstone.h"
#include "transaction/candidate_budget.h"
#include "transaction/capture.h"
#include "transaction/generated_marks.h"
#include "transaction/history_writer.h"
#include "transaction/mutation.h"
#include "transaction/recorded_selector.h"
#include "transaction/reviewer_budget.h"

namespace gentle::transaction {
namespace {

Status WrongState(const store::RecordView& record) {
  return Status(Code::kWrongState, "lineage " + record.lineage_id + " is " + record.state.name() +
                                       "; revise needs correction_required (after "
                                       "REQUEST_CHANGES)")
      .WithLineage(record.lineage_id)
      .WithDetail(DetailKey::kState, record.state.name());
}

// The refusals that depend only on the record and this worktree (LoadForMutation has refused a
// historical-compat record as read_only).
Status CheckRevisable(const store::git::Repository& repo, const store::RecordView& record) {
  if (!record.state.Is(store::ReviewState::kCorrectionRequired)) {
    return WrongState(record);
  }
  if (!record.worktree_identity.empty() && record.worktree_identity != repo.WorktreeIdentity()) {
    return Status(Code::kUsage, "lineage " + record.lineage_id +
                                    " was started in another worktree of this clone; revise it "
                                    "there")
        .WithLineage(record.lineage_id);
  }
  return Status::Ok();
}

// The new round's candidate, checked against the current round and the burn tombstones.
Status CheckCandidate(const store::git::Repository& repo, const store::StoreLayout& layout,
                      const store::RecordView& record, const store::Snapshot& snapshot) {
  if (snapshot.paths.empty()) {
    return Status(Code::kUsage, "nothing to review: the candidate has no changed paths")
        .WithLineage(record.lineage_id);
  }
  for (const std::string& path : snapshot.paths) {
    if (!store::IsValidUtf8(path)) {
      return Status(Code::kUsage,
                    "a changed path is not valid UTF-8 and cannot be recorded: " + path)
          .WithLineage(record.lineage_id);
    }
  }
  if (snapshot.identity == record.current_snapshot.identity) {
    return Status(Code::kUsage, "the live candidate is the one round " +
                                    std::to_string(record.round) +
                                    " already reviews: change it before revise")
        .WithLineage(record.lineage_id)
        .WithDetail(DetailKey::kTargetIdentity, snapshot.identity);
  }
  return store::RefuseBurnedCandidate(layout, repo.worktree_root(), snapshot.identity,
                                      record.lineage_id);
}

}  // namespace

Result<ReviseResult> Revise(const ReviseRequest& request) {
  GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(request.lineage));
  GENTLE_RETURN_IF_ERROR(CheckExpectedRevision(request.expected_revision));
  GENTLE_ASSIGN_OR_RETURN(RoundContextBinding binding, ReadContextBinding(request.context));
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo,
                          store::git::Repository::Discover(request.cwd));
  GENTLE_RETURN_IF_ERROR(repo.RequireWorktree("review revise"));
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_RETURN_IF_ERROR(store::PreflightWrite(layout));

  // The record as it is now, read under the shared lock, names the selector; the candidate is
  // captured outside the writer lock and the revision compared again under it.
  store::RecordView seen;
  {
    GENTLE_ASSIGN_OR_RETURN(store::StoreGuard shared, store::StoreGuard::ForRead(layout));
    GENTLE_ASSIGN_OR_RETURN(
        seen, LoadForMutation(repo, layout, request.lineage, request.expected_revision, "revise"));
  }
  GENTLE_RETURN_IF_ERROR(CheckRevisable(repo, seen));
  Selector selector = RecordedSelector(seen);
  selector.ledger_ids = binding.ledger_ids;
  // As in start: the new round's objects stay in memory until its candidate passes the budget.
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<store::git::MemoryWrites> held,
                          store::git::MemoryWrites::Divert(repo.raw()));
  GENTLE_ASSIGN_OR_RETURN(store::Snapshot snapshot, CaptureSnapshot(repo, selector, held.get()));
  // The new round's budget: the one given, else the current round's.
  uint64_t budget = 0;
  if (request.max_bytes) {
    budget = *request.max_bytes;
  } else {
    GENTLE_ASSIGN_OR_RETURN(budget, CurrentRoundBudget(repo, seen));
  }
  std::string generated;
  if (!snapshot.paths.empty() && snapshot.identity != seen.current_snapshot.identity) {
    // Marked now, from the new round's candidate tree, and frozen in its history commit; an entry
    // no part of the reviewer's view could hold is refused first.
    GENTLE_ASSIGN_OR_RETURN(const std::vector<std::string> marked,
                            MarkGenerated(repo.raw(), snapshot));
    GENTLE_RETURN_IF_ERROR(
        RefuseUnsplittableCandidate(repo, snapshot, marked, budget).WithLineage(request.lineage));
    generated = store::EncodeGeneratedPaths(marked);
  }
  GENTLE_RETURN_IF_ERROR(held->Flush());
  store::FaultPoint("revise:captured");

  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<MutationScope> scope,
                          LockStore(request.cwd, LockKind::kWriter));
  store::FaultPoint("revise:locked");
  GENTLE_ASSIGN_OR_RETURN(store::RecordView record,
                          LoadForMutation(*scope, request.lineage, seen.revision, "revise"));
  GENTLE_RETURN_IF_ERROR(CheckCandidate(scope->repo, scope->layout, record, snapshot));
  GENTLE_ASSIGN_OR_RETURN(nlohmann::ordered_json state, StateOf(record));
  state["generation"] = record.round + 1;
  state["state"] = store::ReviewStateName(store::ReviewState::kReviewing);
  store::SnapshotToJson(snapshot, &state["current_snapshot"]);

  store::HistoryCommitSpec commit;
  commit.at = store::NowRfc3339();
  commit.trailers.emplace_back("Round", std::to_string(record.round + 1));
  AddToHistoryCommit(binding, &commit);
  AddGeneratedPaths(generated, &commit);
  AddRoundBudget(budget, &commit);
  GENTLE_ASSIGN_OR_RETURN(
      store::RecordView written,
      CommitState(scope.get(), record, state, store::HistoryVerb::kRevise, std::move(commit)));
  ReviseResult result;
  result.lineage = request.lineage;
  result.previous_revision = record.revision;
  result.revision = written.revision;
  result.previous_state = record.state;
  result.state = written.state;
  result.round = written.round;
  result.target_identity = written.current_snapshot.identity;
  result.changed_path_count = written.current_snapshot.paths.size();
  return result;
}

}  // namespace gentle::transaction
