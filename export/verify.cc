#include "export/verify.h"

#include "export/burned_approval.h"
#include "export/context_export.h"
#include "export/derivation.h"
#include "export/engine.h"
#include "export/envelope_reader.h"
#include "export/git_flags.h"
#include "export/interdiff_export.h"
#include "export/rebase_refusal.h"
#include "export/trivial_rebase.h"
#include "store/digests.h"
#include "store/fetched_lineage.h"
#include "store/git/git_file_check.h"
#include "store/git/git_util.h"
#include "store/git/tree_rows.h"
#include "store/history_chain.h"
#include "store/history_ref.h"
#include "store/history_verb.h"
#include "store/layout.h"
#include "store/lineage_id.h"
#include "store/provenance.h"
#include "store/record.h"
#include "store/review_state.h"
#include "store/sha256.h"
#include "store/store_guard.h"

namespace gentle::exporter {
namespace {

Result<std::string> TreeOf(const store::git::Repository& repo, const std::string& rev) {
  auto tree = store::git::PeelRev(repo.raw(), rev, GIT_OBJECT_TREE);
  if (!tree.ok()) return Status(Code::kUsage, "--against: " + tree.status().message());
  return store::git::OidHex(*tree);
}

// The tree of `against` is the candidate tree ("exact"), or, with `rebase_base_ref`
// (--allow-trivial-rebase --base-ref REF), its change is `approved_patch` moved to another base
// ("trivial_rebase", export/trivial_rebase.h), unless the approval was consumed (burned): a spent
// approval holds for its exact tree only.
Status CheckAgainst(const store::git::Repository& repo, const std::optional<std::string>& against,
                    const std::string& candidate_tree, const std::string& approved_patch,
                    const std::optional<std::string>& rebase_base_ref, VerifyResult* result) {
  if (!against) return Status::Ok();
  GENTLE_ASSIGN_OR_RETURN(result->against_tree, TreeOf(repo, *against));
  if (rebase_base_ref) GENTLE_RETURN_IF_ERROR(CheckRebaseRevs(repo, *against, *rebase_base_ref));
  if (result->against_tree == candidate_tree) {
    result->match = Match::kExact;
    return Status::Ok();
  }
  const std::string message = "the tree of " + *against + " (" + result->against_tree +
                              ") is not the reviewed candidate tree (" + candidate_tree + ")";
  if (!rebase_base_ref) {
    return Status(Code::kNotReviewed, message)
        .WithDetail(DetailKey::kAgainstTree, result->against_tree)
        .WithDetail(DetailKey::kCandidateTree, candidate_tree);
  }
  if (result->consumed) {
    // A spent approval moves nowhere: CI re-running on the merged commit sees the exact tree.
    return Status(Code::kNotReviewed,
                  message +
                      ", and the approval was consumed (burned): a spent approval holds "
                      "only for its exact tree, never through a trivial rebase")
        .WithDetail(DetailKey::kReason, std::string(RebaseRefusalName(RebaseRefusal::kConsumed)))
        .WithDetail(DetailKey::kBaseRef, *rebase_base_ref)
        .WithDetail(DetailKey::kAgainstTree, result->against_tree)
        .WithDetail(DetailKey::kCandidateTree, candidate_tree);
  }
  auto rebased = MatchTrivialRebase(repo, *against, *rebase_base_ref, approved_patch);
  if (!rebased.ok()) {
    if (rebased.status().code() != Code::kNotReviewed) return rebased.status();
    Status refused(Code::kNotReviewed, message + ", and " + rebased.status().message());
    refused.WithDetailsOf(rebased.status());
    return refused.WithDetail(DetailKey::kAgainstTree, result->against_tree)
        .WithDetail(DetailKey::kCandidateTree, candidate_tree);
  }
  result->match = Match::kTrivialRebase;
  result->rebase = std::move(rebased).value();
  return Status::Ok();
}

Status EnvelopeMismatch(const Envelope& envelope, const std::string& what) {
  return Status(Code::kIntegrityMismatch, "context envelope's " + what)
      .WithLineage(envelope.lineage);
}

bool IsRevision(const std::string& revision) {
  constexpr std::string_view kPrefix = "sha256:";
  if (revision.size() != kPrefix.size() + 64 || revision.compare(0, kPrefix.size(), kPrefix) != 0) {
    return false;
  }
  for (size_t i = kPrefix.size(); i < revision.size(); ++i) {
    const char c = revision[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// What the envelope says about how it was derived, against what this build derives with.
Status CheckDerivationAndBudget(const Envelope& envelope) {
  if (envelope.git_flags != PinnedDiffFlags()) {
    return EnvelopeMismatch(envelope, "derivation.git_flags are not the pinned git flags");
  }
  if (!ParseEngine(envelope.engine)) {
    return EnvelopeMismatch(envelope, "derivation.engine is neither native nor git");
  }
  if (envelope.max_bytes != kMaxContextBytes) {
    return EnvelopeMismatch(envelope,
                            "budget.max_bytes is not " + std::to_string(kMaxContextBytes));
  }
  if (envelope.used_bytes != envelope.patch.size()) {
    return EnvelopeMismatch(envelope, "budget.used_bytes is not the patch's byte_size");
  }
  return Status::Ok();
}

// The manifest re-derived from the trees against the envelope's, entry for entry.
Status CheckManifest(const Envelope& envelope, const std::vector<ManifestEntry>& derived) {
  auto same = [](const ManifestEntry& a, const ManifestEntry& b) {
    return a.path == b.path && a.status == b.status && a.old_mode == b.old_mode &&
           a.new_mode == b.new_mode && a.old_oid == b.old_oid && a.new_oid == b.new_oid;
  };
  if (envelope.manifest.size() != derived.size()) {
    return EnvelopeMismatch(envelope, "changed_path_manifest lists " +
                                          std::to_string(envelope.manifest.size()) +
                                          " entries; the trees have " +
                                          std::to_string(derived.size()) + " changed paths");
  }
  for (size_t i = 0; i < derived.size(); ++i) {
    if (!same(envelope.manifest[i], derived[i])) {
      return EnvelopeMismatch(envelope, "changed_path_manifest entry " + std::to_string(i) +
                                            " is not the trees' (" + derived[i].path + ")")
          .WithDetail(DetailKey::kPath, derived[i].path);
    }
  }
  return Status::Ok();
}

void Fill(const Derived& derived, VerifyResult* result) {
  result->byte_size = derived.patch.size();
  result->sha256 = "sha256:" + store::Sha256Hex(derived.patch);
  result->engine = derived.engine;
}

// The approved record the local history's burn commit holds (export/burned_approval.h).
Result<LoadedRecord> LocalBurnedApproval(const store::git::Repository& repo,
                                         const std::string& lineage) {
  GENTLE_ASSIGN_OR_RETURN(store::RecordView record, BurnedApproval(repo, lineage));
  GENTLE_ASSIGN_OR_RETURN(
      std::string source,
      store::ImportedSource(repo, store::StoreLayout(repo.common_dir()), lineage));
  return LoadedRecord{std::move(record), std::move(source), false};
}

// The approved record a burned fetched-only lineage's verified history ends with.
Result<LoadedRecord> FetchedBurnedApproval(const store::git::Repository& repo,
                                           const std::string& lineage) {
  GENTLE_ASSIGN_OR_RETURN(std::optional<store::FetchedLineage> fetched,
                          store::ReadFetchedLineage(repo, lineage));
  if (!fetched || !fetched->chain.terminal.Is(store::HistoryVerb::kBurn)) {
    return Status(Code::kBusy, "the fetched history of " + lineage + " moved while reading")
        .WithLineage(lineage);
  }
  return LoadedRecord{fetched->chain.record, fetched->remote, true};
}

// The tip of the history that answered: the local ref, or `source`'s fetched one.
Result<std::optional<std::string>> HistoryTip(const store::git::Repository& repo,
                                              const std::string& lineage,
                                              const std::string& source) {
  const std::string name = source.empty() ? store::HistoryRefName(lineage)
                                          : store::FetchedHistoryRefName(source, lineage);
  GENTLE_RETURN_IF_ERROR(store::git::CheckRefFile(repo, name).WithLineage(lineage));
  git_oid target;
  const int rc = git_reference_name_to_id(&target, repo.raw(), name.c_str());
  if (rc == GIT_ENOTFOUND) return std::optional<std::string>();
  if (rc != 0) {
    return Status(Code::kInternal, "cannot read " + name + ": " + store::git::LastGitError());
  }
  return std::optional<std::string>(store::git::OidHex(target));
}

// The approvals of `record`'s round in the history that answered (the local one, or `source`'s
// fetched one), judged by `policy` (export/approval_policy.h).
Status CheckApprovals(const store::git::Repository& repo, const store::RecordView& record,
                      const std::string& source, ApprovalPolicy policy,
                      const std::optional<std::string>& against, VerifyResult* result) {
  const std::string& lineage = record.lineage_id;
  if (against) policy.head = *against;
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> tip, HistoryTip(repo, lineage, source));
  auto tally = TallyApprovals(repo, lineage, tip, record.revision, policy);
  if (!tally.ok()) return Status(tally.status()).WithLineage(lineage);
  GENTLE_RETURN_IF_ERROR(CheckApprovalPolicy(*tally, policy, lineage));
  for (const JudgedApproval& a : tally->approvals) {
    if (policy.require_signature && a.approval.kind == store::ApprovalKind::kVerdict) {
      result->approval_commit = a.approval.commit;
      result->signer = a.principal;
      result->signer_key = a.key;
    }
  }
  result->tally = std::move(tally).value();
  return Status::Ok();
}

}  // namespace

Result<VerifyResult> VerifyLineage(const std::string& cwd, const std::string& lineage,
                                   const std::optional<std::string>& against,
                                   const std::optional<ApprovalPolicy>& policy,
                                   const std::optional<std::string>& rebase_base_ref) {
  GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(lineage));
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(cwd));
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForRead(layout));
  auto loaded = LoadForRead(repo, lineage);
  bool consumed = false;
  if (!loaded.ok() && loaded.status().code() == Code::kConsumed && (against || policy)) {
    // A spent approval is what CI sees after a merge: the history's burn commit holds it.
    auto burned = store::FromFetchedHistory(loaded.status()) ? FetchedBurnedApproval(repo, lineage)
                                                             : LocalBurnedApproval(repo, lineage);
    if (burned.ok()) {
      loaded = std::move(burned);
      consumed = true;
    } else if (burned.status().code() != Code::kConsumed) {
      return burned.status();
    }
  }
  if (!loaded.ok()) return loaded.status();
  const store::RecordView& record = loaded->record;
  // The whole exact diff, up to the binding ceiling (a generated entry may take it past the
  // export budget).
  auto derived = DeriveContext(repo, record.current_snapshot, Engine::kNative,
                               PathsCheck::kListAndDigest, kMaxBoundDiffBytes);
  if (!derived.ok()) {
    Status st = derived.status();
    return st.WithLineage(lineage);
  }
  VerifyResult result;
  result.lineage = lineage;
  result.state = record.state;
  result.consumed = consumed;
  result.source = loaded->source;
  result.candidate_tree = record.current_snapshot.candidate_tree;
  Fill(*derived, &result);
  Status against_status =
      CheckAgainst(repo, against, result.candidate_tree, derived->patch, rebase_base_ref, &result);
  if (!against_status.ok()) return against_status.WithLineage(lineage);
  if ((against || policy) && !record.state.Is(store::ReviewState::kApproved)) {
    return Status(Code::kWrongState, "lineage " + lineage + " is " + record.state.name() +
                                         ", not approved; the merge is not authorised")
        .WithLineage(lineage);
  }
  if (policy) {
    Status approvals = CheckApprovals(repo, record, loaded->fetched ? loaded->source : "", *policy,
                                      against, &result);
    if (!approvals.ok()) return approvals.WithLineage(lineage);
  }
  store::git::LeaveToExit(std::move(repo));
  return result;
}

const std::vector<std::string>& EnvelopeSelfAsserted() {
  static const std::vector<std::string> kMembers = {"lineage",
                                                    "revision",
                                                    "state",
                                                    "applicability",
                                                    "next",
                                                    "next_reason",
                                                    "source",
                                                    "snapshot.kind",
                                                    "snapshot.projection",
                                                    "snapshot.ledger_ids",
                                                    "snapshot.intended_untracked",
                                                    "snapshot.unborn_head",
                                                    "derivation.engine",
                                                    "derivation.tool_version"};
  return kMembers;
}

const std::vector<std::string>& EnvelopeChecked() {
  static const std::vector<std::string> kMembers = {
      "candidate_diff",          "snapshot.base_tree",
      "snapshot.candidate_tree", "snapshot.paths_digest",
      "snapshot.identity",       "changed_path_manifest",
      "derivation.git_flags",    "budget"};
  return kMembers;
}

Result<VerifyResult> VerifyEnvelope(const std::string& cwd, const std::string& envelope_json,
                                    const std::optional<std::string>& against,
                                    const std::optional<std::string>& rebase_base_ref) {
  auto parsed = ParseEnvelope(envelope_json);
  if (!parsed.ok()) {
    const std::string* schema = parsed.status().detail(DetailKey::kSchema);
    if (schema != nullptr && *schema == kInterdiffSchema) {
      return Status(Code::kUsage,
                    "the envelope is an interdiff export (" + *schema +
                        "), not a review context: it is no approval context and cannot be "
                        "verified; verify the round's export-context --json envelope")
          .WithDetail(DetailKey::kSchema, *schema);
    }
    return parsed.status();
  }
  Envelope envelope = std::move(parsed).value();
  if (envelope.view) {
    return Status(Code::kUsage,
                  "the envelope is part of the " + *envelope.view +
                      " view (export-context --view/--max-bytes), not the whole "
                      "diff: a part is no approval context and cannot be verified; "
                      "verify the lineage or its whole export-context --json envelope")
        .WithDetail(DetailKey::kReason, "part_envelope");
  }
  if (!store::IsValidLineageId(envelope.lineage)) {
    return Status(Code::kIntegrityMismatch, "context envelope names an invalid lineage id");
  }
  if (!IsRevision(envelope.revision)) {
    return EnvelopeMismatch(envelope, "revision is not sha256: and 64 lowercase hex digits");
  }
  if (envelope.round_revision && !IsRevision(*envelope.round_revision)) {
    return EnvelopeMismatch(envelope, "round_revision is not sha256: and 64 lowercase hex digits");
  }
  if (store::ComputeSnapshotIdentity(envelope.snapshot) != envelope.snapshot.identity) {
    return EnvelopeMismatch(envelope, "snapshot identity does not bind its trees and digests");
  }
  GENTLE_RETURN_IF_ERROR(CheckDerivationAndBudget(envelope));
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(cwd));
  auto derived = DeriveContext(repo, envelope.snapshot, Engine::kNative, PathsCheck::kDigestOnly);
  if (!derived.ok()) {
    Status st = derived.status();
    return st.WithLineage(envelope.lineage);
  }
  if (derived->patch != envelope.patch) {
    return EnvelopeMismatch(envelope,
                            "bytes differ from the patch derived from this clone's objects");
  }
  GENTLE_RETURN_IF_ERROR(CheckManifest(envelope, derived->manifest));
  VerifyResult result;
  result.lineage = envelope.lineage;
  result.state = envelope.state;
  result.candidate_tree = envelope.snapshot.candidate_tree;
  result.self_asserted = EnvelopeSelfAsserted();
  if (envelope.round) {
    // After "revision": what the envelope says about rounds is as self-asserted as its revision.
    auto at = result.self_asserted.begin() + 2;
    if (envelope.round_revision) at = result.self_asserted.insert(at, "round_revision");
    result.self_asserted.insert(at, "round");
  }
  Fill(*derived, &result);
  Status against_status =
      CheckAgainst(repo, against, result.candidate_tree, envelope.patch, rebase_base_ref, &result);
  if (!against_status.ok()) return against_status.WithLineage(envelope.lineage);
  if (envelope.round_revision && *envelope.round_revision != envelope.revision) {
    // export-context --round N of an earlier round: the state is the lineage's current round's.
    return Status(Code::kWrongState,
                  "context envelope exports round " + std::to_string(*envelope.round) +
                      " of lineage " + envelope.lineage + " (revision " + *envelope.round_revision +
                      "), not its current round (revision " + envelope.revision +
                      "); only the current round is an approval context")
        .WithLineage(envelope.lineage)
        .WithDetail(DetailKey::kRound, std::to_string(*envelope.round))
        .WithDetail(DetailKey::kRoundRevision, *envelope.round_revision);
  }
  if (!envelope.state.Is(store::ReviewState::kApproved)) {
    return Status(Code::kWrongState, "context envelope says lineage " + envelope.lineage + " is " +
                                         envelope.state.name() + ", not approved")
        .WithLineage(envelope.lineage)
        .WithDetail(DetailKey::kState, envelope.state.name());
  }
  return result;
}

}  // namespace gentle::exporter
