#include "transaction/invalidate.h"

#include "store/clock.h"
#include "store/fault_point.h"
#include "store/lineage_id.h"
#include "store/review_state.h"
#include "transaction/history_writer.h"
#include "transaction/mutation.h"

namespace gentle::transaction {

Result<InvalidateResult> Invalidate(const InvalidateRequest& request) {
  GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(request.lineage));
  GENTLE_RETURN_IF_ERROR(RequireText("--reason", request.reason));
  GENTLE_RETURN_IF_ERROR(RequireText("--actor", request.actor));
  GENTLE_RETURN_IF_ERROR(CheckExpectedRevision(request.expected_revision));
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<MutationScope> scope,
                          LockStore(request.cwd, LockKind::kWriter));
  store::FaultPoint("invalidate:locked");
  GENTLE_ASSIGN_OR_RETURN(
      store::RecordView record,
      LoadForMutation(*scope, request.lineage, request.expected_revision, "invalidate"));
  GENTLE_ASSIGN_OR_RETURN(nlohmann::ordered_json state, StateOf(record));
  // No code verdict leaves a record `reviewing`, so a reviewing record is pristine (a docs
  // reviewer's FIXED or NO_CHANGES keeps it `reviewing` and does not count: it never decides
  // whether the change lands); one written by an earlier build says so in its verdict_history.
  const auto history = state.find("verdict_history");
  // A later round (after revise) follows a REQUEST_CHANGES, so it is never pristine.
  const bool pristine =
      record.state.Is(store::ReviewState::kReviewing) && record.round == 1 &&
      (history == state.end() || history->is_null() || (history->is_array() && history->empty()));
  if (!pristine) {
    return Status(Code::kWrongState,
                  "lineage " + request.lineage + " is " + record.state.name() +
                      (record.state.Is(store::ReviewState::kReviewing) ? " with verdicts" : "") +
                      "; invalidate needs a pristine reviewing record")
        .WithLineage(request.lineage)
        .WithDetail(DetailKey::kState, record.state.name());
  }
  state["state"] = store::ReviewStateName(store::ReviewState::kInvalidated);
  state["invalidation_reason"] = Trimmed(request.reason);
  const std::string at = store::NowRfc3339();  // the actor and the time are the history commit's
  store::HistoryCommitSpec commit;
  commit.at = at;
  commit.trailers.emplace_back("Actor", Trimmed(request.actor));
  GENTLE_ASSIGN_OR_RETURN(
      store::RecordView written,
      CommitState(scope.get(), record, state, store::HistoryVerb::kInvalidate, std::move(commit)));
  return InvalidateResult{request.lineage, record.revision, written.revision, written.state};
}

}  // namespace gentle::transaction
