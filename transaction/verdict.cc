#include "transaction/verdict.h"

#include "store/fault_point.h"
#include "store/lineage_id.h"
#include "store/review_state.h"
#include "store/secret.h"
#include "store/sha256.h"
#include "transaction/approval_signer.h"
#include "transaction/clock.h"
#include "transaction/history_writer.h"
#include "transaction/mutation.h"

namespace gentle::transaction {
namespace {

std::optional<store::ReviewState> TargetOf(std::string_view verdict) {
  if (verdict == "APPROVE") return store::ReviewState::kApproved;
  if (verdict == "REQUEST_CHANGES") return store::ReviewState::kCorrectionRequired;
  if (verdict == "NEEDS_DISCUSSION") return store::ReviewState::kEscalated;
  return std::nullopt;
}

}  // namespace

Status ValidateVerdictRequest(const VerdictRequest& r) {
  if (!TargetOf(r.verdict)) {
    return Status(Code::kUsage,
                  "--verdict must be exactly APPROVE, REQUEST_CHANGES or "
                  "NEEDS_DISCUSSION, got \"" +
                      r.verdict + "\"");
  }
  GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(r.lineage));
  GENTLE_RETURN_IF_ERROR(RequireText("--actor", r.actor));
  GENTLE_RETURN_IF_ERROR(CheckExpectedRevision(r.expected_revision));
  if (r.sign && r.verdict != "APPROVE") {
    return Status(Code::kUsage, "--sign signs approvals only (--verdict APPROVE)");
  }
  if (r.role != "reviewer") {
    return Status(Code::kForbidden, "role \"" + r.role + "\" may not give verdicts (only reviewer)")
        .WithLineage(r.lineage)
        .WithDetail("role", r.role);
  }
  return Status::Ok();
}

Result<VerdictResult> GiveVerdict(const VerdictRequest& request) {
  GENTLE_RETURN_IF_ERROR(ValidateVerdictRequest(request));
  const store::ReviewState target = *TargetOf(request.verdict);
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<MutationScope> scope,
                          LockStore(request.cwd, LockKind::kWriter));
  store::FaultPoint("verdict:locked");
  GENTLE_ASSIGN_OR_RETURN(
      store::RecordView record,
      LoadForMutation(*scope, request.lineage, request.expected_revision, "verdict"));
  auto from = store::ParseReviewState(record.state);
  if (!from || (*from != store::ReviewState::kReviewing &&
                *from != store::ReviewState::kCorrectionRequired)) {
    return Status(Code::kWrongState, "lineage " + request.lineage + " is " + record.state +
                                         "; a verdict needs " + "reviewing or correction_required")
        .WithLineage(request.lineage)
        .WithDetail("state", record.state);
  }
  GENTLE_ASSIGN_OR_RETURN(nlohmann::ordered_json state, StateOf(record));

  VerdictResult result;
  result.lineage = request.lineage;
  result.verdict = request.verdict;
  result.previous_state = record.state;
  result.state = std::string(store::ReviewStateName(target));
  result.previous_revision = record.revision;
  result.body_sha256 = "sha256:" + store::Sha256Hex(request.body);
  result.at = NowRfc3339();
  std::optional<ApprovalSigner> signer;
  if (target == store::ReviewState::kApproved) {
    bool sign = request.sign;
    if (!sign) {
      GENTLE_ASSIGN_OR_RETURN(sign, SignApprovalsConfigured(scope->repo));
    }
    if (sign) {
      GENTLE_ASSIGN_OR_RETURN(signer, LoadApprovalSigner(scope->repo));
    }
    GENTLE_ASSIGN_OR_RETURN(result.token, store::RandomHex(32));
    // Kept as gentle-ai keeps it, so either tool can burn the other's approval.
    state["approved_ack_token"] = result.token;
  }
  state["state"] = result.state;

  // The body, actor, role and time live in the history commit (verdicts/<generation>.md), which
  // is durable before the record is written: a committed verdict never loses its body.
  store::HistoryCommitSpec commit;
  commit.at = result.at;
  commit.files.emplace_back(
      "verdicts/" + std::to_string(record.generation) + ".md",
      VerdictFile(request.verdict, Trimmed(request.actor), request.role, result.at,
                  result.previous_state, result.state, result.body_sha256, request.body));
  commit.trailers.emplace_back("Verdict", request.verdict);
  if (signer) {
    commit.sign = [signer](const std::string& payload) { return SignPayload(*signer, payload); };
    result.signed_approval = true;
  }
  GENTLE_ASSIGN_OR_RETURN(store::RecordView written,
                          CommitState(scope.get(), record, state, "verdict", std::move(commit)));
  result.revision = written.revision;
  return result;
}

}  // namespace gentle::transaction
