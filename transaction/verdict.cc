#include "transaction/verdict.h"

#include "export/posted_comment.h"
#include "store/clock.h"
#include "store/fault_point.h"
#include "store/history_ref.h"
#include "store/history_replay.h"
#include "store/lineage_id.h"
#include "store/review_state.h"
#include "store/round_context.h"
#include "store/secret.h"
#include "store/sha256.h"
#include "store/verdict_name.h"
#include "transaction/approval_signer.h"
#include "transaction/co_approval.h"
#include "transaction/config_flag.h"
#include "transaction/context_cap.h"
#include "transaction/history_writer.h"
#include "transaction/mutation.h"

namespace gentle::transaction {
namespace {

using store::IsCodeVerdict;
using store::IsDocsVerdict;
using store::ReviewerRole;

// The context-unavailable cap (transaction/context_cap.h): APPROVE is refused in a round whose
// harness could not read the review context, and, with git config gentle-ai.requireContext=true,
// in a round bound to no context at all (no --context: the harness never said what it read).
Status CheckContextAvailable(const store::git::Repository& repo, const store::RecordView& record) {
  GENTLE_ASSIGN_OR_RETURN(std::optional<store::HistoryCommit> tip,
                          store::ReadHistoryTip(repo, record.lineage_id));
  std::optional<store::RoundContext> round;
  if (tip) {
    GENTLE_ASSIGN_OR_RETURN(round, store::ReadRoundContext(repo, tip->id, record.round));
  }
  const std::string number = std::to_string(record.round);
  const RoundBinding binding = BindingOf(round);
  if (binding == RoundBinding::kUnavailable) {
    return Status(Code::kContextUnavailable,
                  "round " + number + " of lineage " + record.lineage_id +
                      " was reviewed without its review context (" + round->unavailable_reason +
                      "): APPROVE is capped; revise with --context to lift it")
        .WithLineage(record.lineage_id)
        .WithDetail(DetailKey::kRound, number)
        .WithDetail(DetailKey::kReason, round->unavailable_reason);
  }
  if (binding == RoundBinding::kBound) return Status::Ok();
  GENTLE_ASSIGN_OR_RETURN(bool required, RequireContext(repo));
  if (!ApproveCapped(binding, required)) return Status::Ok();
  return Status(Code::kContextUnavailable,
                "round " + number + " of lineage " + record.lineage_id +
                    " is bound to no review context and git config " + kRequireContextKey +
                    " is true: APPROVE is capped; revise with --context to lift it")
      .WithLineage(record.lineage_id)
      .WithDetail(DetailKey::kRound, number)
      .WithDetail(DetailKey::kReason, "no review context bound")
      .WithDetail(DetailKey::kConfig, kRequireContextKey);
}

// The signer of an APPROVE: --sign, or git config gentle-ai.signApprovals=true; nullopt unsigned.
Result<std::optional<ApprovalSigner>> ApprovalSignerFor(const store::git::Repository& repo,
                                                        const VerdictRequest& request) {
  bool sign = request.sign;
  if (!sign) {
    GENTLE_ASSIGN_OR_RETURN(sign, SignApprovalsConfigured(repo));
  }
  if (!sign) return std::optional<ApprovalSigner>();
  Result<ApprovalSigner> signer = LoadApprovalSigner(repo);
  if (!signer.ok()) return Status(signer.status()).WithLineage(request.lineage);
  return std::optional<ApprovalSigner>(std::move(signer).value());
}

// The actor recorded: --actor trimmed, or without it the signing key's principal.
Result<std::string> ActorOf(const store::git::Repository& repo, const VerdictRequest& request,
                            const std::optional<ApprovalSigner>& signer) {
  const std::string actor = Trimmed(request.actor);
  if (!actor.empty()) return actor;
  if (!signer) return Status(Code::kUsage, "--actor is required and must not be blank");
  Result<std::string> principal = SignerPrincipal(repo, *signer);
  if (!principal.ok()) return Status(principal.status()).WithLineage(request.lineage);
  return principal;
}

}  // namespace

Status ValidateVerdictRequest(const VerdictRequest& r) {
  const std::optional<store::Verdict> verdict = r.verdict.value();
  if (!verdict) {
    return Status(Code::kUsage,
                  "--verdict must be exactly APPROVE, REQUEST_CHANGES or NEEDS_DISCUSSION (role "
                  "reviewer), or APPROVE, FIXED or NO_CHANGES (role docs-reviewer), got \"" +
                      r.verdict.text() + "\"");
  }
  GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(r.lineage));
  if (!r.sign) GENTLE_RETURN_IF_ERROR(RequireText("--actor", r.actor));
  GENTLE_RETURN_IF_ERROR(CheckExpectedRevision(r.expected_revision));
  if (r.sign && verdict != store::Verdict::kApprove) {
    return Status(Code::kUsage, "--sign signs approvals only (--verdict APPROVE)")
        .WithLineage(r.lineage);
  }
  if (!r.role.value()) {
    return Status(Code::kForbidden, "role \"" + r.role.text() +
                                        "\" may not give verdicts (only reviewer and "
                                        "docs-reviewer)")
        .WithLineage(r.lineage)
        .WithDetail(DetailKey::kRole, r.role.text());
  }
  const bool docs = r.role.Is(ReviewerRole::kDocsReviewer);
  if (docs ? !IsDocsVerdict(verdict) : !IsCodeVerdict(verdict)) {
    return Status(Code::kForbidden,
                  "role \"" + r.role.text() + "\" may not give " + r.verdict.text() +
                      (docs ? " (docs-reviewer: APPROVE, FIXED or NO_CHANGES)"
                            : " (reviewer: APPROVE, REQUEST_CHANGES or NEEDS_DISCUSSION)"))
        .WithLineage(r.lineage)
        .WithDetail(DetailKey::kRole, r.role.text());
  }
  return Status::Ok();
}

Result<VerdictResult> GiveVerdict(const VerdictRequest& request) {
  GENTLE_RETURN_IF_ERROR(ValidateVerdictRequest(request));
  const store::Verdict verdict = *request.verdict.value();
  const store::ReviewerRole role = *request.role.value();
  // Prevention over detection: a verdict `review comment` could not post is never recorded.
  if (Status st = exporter::CheckPostable(request.role, request.verdict, request.body); !st.ok()) {
    return Status(st).WithLineage(request.lineage);
  }
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<MutationScope> scope,
                          LockStore(request.cwd, LockKind::kWriter));
  store::FaultPoint("verdict:locked");
  GENTLE_ASSIGN_OR_RETURN(
      store::RecordView record,
      LoadForMutation(*scope, request.lineage, request.expected_revision, "verdict"));
  const bool approving = verdict == store::Verdict::kApprove;
  if (approving && record.state.Is(store::ReviewState::kApproved)) {
    GENTLE_ASSIGN_OR_RETURN(std::optional<ApprovalSigner> signer,
                            ApprovalSignerFor(scope->repo, request));
    GENTLE_ASSIGN_OR_RETURN(std::string actor, ActorOf(scope->repo, request, signer));
    GENTLE_ASSIGN_OR_RETURN(VerdictResult co,
                            CoApprove(scope.get(), record, request, actor, signer));
    co.actor = actor;
    return co;
  }
  // The transition table is the history replay's (store/history_replay.h), so a fetched history
  // is held to exactly what this verb does.
  const std::optional<store::ReviewState> from = record.state.state();
  if (!from || !store::AcceptsVerdict(record.state)) {
    return Status(Code::kWrongState, "lineage " + request.lineage + " is " + record.state.name() +
                                         "; a verdict needs " + "reviewing or correction_required")
        .WithLineage(request.lineage)
        .WithDetail(DetailKey::kState, record.state.name());
  }
  const store::ReviewState target = store::VerdictTarget(verdict, *from).value_or(*from);
  if (target == store::ReviewState::kApproved) {
    GENTLE_RETURN_IF_ERROR(CheckContextAvailable(scope->repo, record));
  }
  GENTLE_ASSIGN_OR_RETURN(nlohmann::ordered_json state, StateOf(record));

  VerdictResult result;
  result.lineage = request.lineage;
  result.verdict = verdict;
  result.previous_state = record.state;
  result.state = target;
  result.previous_revision = record.revision;
  result.body_sha256 = "sha256:" + store::Sha256Hex(request.body);
  result.at = store::NowRfc3339();
  std::optional<ApprovalSigner> signer;
  if (target == store::ReviewState::kApproved) {
    GENTLE_ASSIGN_OR_RETURN(signer, ApprovalSignerFor(scope->repo, request));
    result.approval = ApprovalOutcome::kApproval;
    GENTLE_ASSIGN_OR_RETURN(result.token, store::RandomHex(32));
    // Kept as gentle-ai keeps it, so either tool can burn the other's approval.
    state["approved_ack_token"] = result.token;
  }
  state["state"] = result.state.name();
  GENTLE_ASSIGN_OR_RETURN(result.actor, ActorOf(scope->repo, request, signer));

  // The body, actor, role and time live in the history commit (verdicts/<round>.md), which
  // is durable before the record is written: a committed verdict never loses its body.
  store::HistoryCommitSpec commit;
  commit.at = result.at;
  commit.files.emplace_back(
      "verdicts/" + std::to_string(record.round) + ".md",
      VerdictFile(verdict, result.actor, role, result.at, result.previous_state.name(),
                  result.state.name(), result.body_sha256, request.body));
  commit.trailers.emplace_back("Verdict", store::VerdictName(verdict));
  if (signer) {
    commit.sign = CommitSigner(*signer, request.lineage);
    result.signed_approval = true;
  }
  GENTLE_ASSIGN_OR_RETURN(
      store::RecordView written,
      CommitState(scope.get(), record, state, store::HistoryVerb::kVerdict, std::move(commit)));
  result.revision = written.revision;
  return result;
}

}  // namespace gentle::transaction
