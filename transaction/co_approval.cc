#include "transaction/co_approval.h"

#include <vector>

#include "store/clock.h"
#include "store/git/commit_signature.h"
#include "store/history_ref.h"
#include "store/history_sync.h"
#include "store/history_verb.h"
#include "store/review_state.h"
#include "store/round_approvals.h"
#include "store/sha256.h"
#include "transaction/history_writer.h"

namespace gentle::transaction {
namespace {

// Whether `actor` already approved the round as signed as this approval would be.
Result<bool> AlreadyApproved(const store::git::Repository& repo, const store::RecordView& record,
                             const std::optional<store::HistoryCommit>& tip,
                             const std::string& actor, bool signing) {
  if (!tip) return false;
  GENTLE_ASSIGN_OR_RETURN(std::vector<store::RoundApproval> approvals,
                          store::RoundApprovals(repo, record.lineage_id, tip->id, record.revision));
  for (const store::RoundApproval& approval : approvals) {
    if (approval.actor != actor) continue;
    if (!signing) return true;
    GENTLE_ASSIGN_OR_RETURN(std::optional<store::git::CommitSignature> signature,
                            store::git::ReadCommitSignature(repo, approval.commit));
    if (signature) return true;
  }
  return false;
}

}  // namespace

Result<VerdictResult> CoApprove(MutationScope* scope, const store::RecordView& record,
                                const VerdictRequest& request, const std::string& actor,
                                const std::optional<ApprovalSigner>& signer) {
  const std::string& lineage = record.lineage_id;
  VerdictResult result;
  result.lineage = lineage;
  result.verdict = store::Verdict::kApprove;
  result.previous_state = record.state;
  result.state = record.state;
  result.previous_revision = record.revision;
  result.revision = record.revision;
  result.body_sha256 = "sha256:" + store::Sha256Hex(request.body);
  result.at = store::NowRfc3339();
  GENTLE_ASSIGN_OR_RETURN(store::HistoryCheck check,
                          store::CheckHistory(scope->repo, scope->layout, lineage));
  GENTLE_ASSIGN_OR_RETURN(
      bool repeat, AlreadyApproved(scope->repo, record, check.tip, actor, signer.has_value()));
  if (repeat) {
    result.approval = ApprovalOutcome::kRepeat;
    return result;
  }
  if (!check.record_file) {
    return Status(Code::kBusy, "the record of lineage " + lineage + " moved while reading")
        .WithLineage(lineage);
  }
  store::HistoryCommitSpec commit;
  commit.verb = store::HistoryVerb::kCoApprove;
  commit.lineage = lineage;
  commit.record_file = *check.record_file;
  commit.revision = record.revision;
  commit.state = record.state;
  commit.base_tree = record.current_snapshot.base_tree;
  commit.candidate_tree = record.current_snapshot.candidate_tree;
  commit.at = result.at;
  commit.files.emplace_back(
      std::string(store::kHistoryCoApprovalName),
      VerdictFile(store::Verdict::kApprove, actor, *request.role.value(), result.at,
                  record.state.name(), record.state.name(), result.body_sha256, request.body));
  commit.trailers.emplace_back("Verdict", store::VerdictName(store::Verdict::kApprove));
  std::optional<PreparedHistory> prepared;
  if (signer) {
    commit.sign = CommitSigner(*signer, lineage);
    result.signed_approval = true;
    // Signed before the index is opened: a signing failure is a refusal that changes nothing.
    GENTLE_ASSIGN_OR_RETURN(prepared, PrepareHistoryCommit(scope->repo, scope->layout, commit));
  }
  GENTLE_RETURN_IF_ERROR(OpenIndex(scope));
  GENTLE_RETURN_IF_ERROR(AppendHistory(scope->repo, scope->layout, std::move(commit), prepared));
  result.approval = ApprovalOutcome::kCoApproval;
  return result;
}

}  // namespace gentle::transaction
