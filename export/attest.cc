#include "export/attest.h"

#include <nlohmann/json.hpp>

#include "export/approval_signature.h"
#include "export/burned_approval.h"
#include "export/context_export.h"
#include "export/derivation.h"
#include "export/git_flags.h"
#include "store/fetched_lineage.h"
#include "store/git/commit_signature.h"
#include "store/go_marshal.h"
#include "store/history_ref.h"
#include "store/history_verb.h"
#include "store/layout.h"
#include "store/lineage_id.h"
#include "store/provenance.h"
#include "store/record.h"
#include "store/review_state.h"
#include "store/sha256.h"
#include "store/store_guard.h"
#include "store/verdict_file.h"
#include "store/verdict_name.h"

namespace gentle::exporter {
namespace {

// Fills who approved from the approval's history commit (export/approval_signature.h), when the
// history holds one. `fetched_tip`: the verified tip of the fetched history the record came from
// (empty: the local history).
Status FillApprover(const store::git::Repository& repo, const store::RecordView& record,
                    const std::string& fetched_tip, Attestation* out) {
  std::string tip = fetched_tip;
  if (tip.empty()) {
    GENTLE_ASSIGN_OR_RETURN(std::optional<store::HistoryCommit> local,
                            store::ReadHistoryTip(repo, record.lineage_id));
    if (!local) return Status::Ok();
    tip = local->id;
  }
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> commit,
                          FindApprovalCommit(repo, record.lineage_id, tip, record.revision));
  if (!commit) return Status::Ok();
  const std::string name = "verdicts/" + std::to_string(record.round) + ".md";
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> file,
                          store::ReadHistoryFile(repo, *commit, name));
  if (!file) {
    return Status(Code::kCorrupted, "the approval commit " + *commit + " of lineage " +
                                        record.lineage_id + " has no " + name)
        .WithLineage(record.lineage_id);
  }
  auto fields = store::ParseVerdictFile(*file);
  if (!fields.ok() || !fields->verdict.Is(store::Verdict::kApprove)) {
    return Status(Code::kCorrupted, "the approval commit " + *commit + " of lineage " +
                                        record.lineage_id + " holds a " + name +
                                        " that is not an APPROVE verdict")
        .WithLineage(record.lineage_id);
  }
  out->actor = fields->actor;
  out->role = fields->role;
  out->history_commit = *commit;
  GENTLE_ASSIGN_OR_RETURN(std::optional<store::git::CommitSignature> signature,
                          store::git::ReadCommitSignature(repo, *commit));
  out->is_signed = signature.has_value();
  return Status::Ok();
}

// The approvals that count under `policy`, in the history FillApprover read.
Status FillCounted(const store::git::Repository& repo, const store::RecordView& record,
                   const std::string& fetched_tip, const ApprovalPolicy& policy, Attestation* out) {
  std::optional<std::string> tip;
  if (!fetched_tip.empty()) {
    tip = fetched_tip;
  } else {
    GENTLE_ASSIGN_OR_RETURN(tip, store::LocalHistoryTip(repo, record.lineage_id));
  }
  auto tally = TallyApprovals(repo, record.lineage_id, tip, record.revision, policy);
  if (!tally.ok()) return Status(tally.status()).WithLineage(record.lineage_id);
  out->approvals.emplace();
  for (JudgedApproval& a : tally->approvals) {
    if (a.counted()) out->approvals->push_back(std::move(a));
  }
  return Status::Ok();
}

}  // namespace

Result<Attestation> Attest(const std::string& cwd, const std::string& lineage,
                           const std::optional<ApprovalPolicy>& policy) {
  GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(lineage));
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(cwd));
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForRead(layout));
  Attestation out;
  auto loaded = LoadForRead(repo, lineage);
  std::string fetched_tip;
  if (!loaded.ok() && loaded.status().code() == Code::kConsumed) {
    if (store::FromFetchedHistory(loaded.status())) {
      // A burned approval known only from a fetched history: its verified burn commit.
      GENTLE_ASSIGN_OR_RETURN(std::optional<store::FetchedLineage> fetched,
                              store::ReadFetchedLineage(repo, lineage));
      if (!fetched || !fetched->chain.terminal.Is(store::HistoryVerb::kBurn)) {
        return loaded.status();
      }
      fetched_tip = fetched->chain.tip().id;
      loaded = LoadedRecord{fetched->chain.record, fetched->remote, true};
    } else {
      GENTLE_ASSIGN_OR_RETURN(store::RecordView burned, BurnedApproval(repo, lineage));
      GENTLE_ASSIGN_OR_RETURN(std::string source, store::ImportedSource(repo, layout, lineage));
      loaded = LoadedRecord{std::move(burned), std::move(source), false};
    }
    out.consumed = true;
  } else if (loaded.ok() && loaded->fetched) {
    GENTLE_ASSIGN_OR_RETURN(std::optional<store::FetchedLineage> fetched,
                            store::ReadFetchedLineage(repo, lineage));
    if (!fetched) return Status(Code::kNotFound, "lineage " + lineage + " is not known");
    fetched_tip = fetched->chain.tip().id;
  }
  if (!loaded.ok()) return loaded.status();
  const store::RecordView& record = loaded->record;
  if (!record.state.Is(store::ReviewState::kApproved)) {
    return Status(Code::kWrongState, "lineage " + lineage + " is " + record.state.name() +
                                         ", not approved; nothing to attest")
        .WithLineage(lineage)
        .WithDetail(DetailKey::kState, record.state.name());
  }
  // As verify: the patch of the record's current round, the trees of its current snapshot.
  // The whole exact diff, up to the binding ceiling (a generated entry may take it past the
  // export budget).
  auto derived = DeriveContext(repo, record.current_snapshot, Engine::kNative,
                               PathsCheck::kListAndDigest, kMaxBoundDiffBytes);
  if (!derived.ok()) {
    Status st = derived.status();
    return st.WithLineage(lineage);
  }
  out.lineage = lineage;
  out.revision = record.revision;
  out.base_tree = record.current_snapshot.base_tree;
  out.candidate_tree = record.current_snapshot.candidate_tree;
  out.paths_digest = record.current_snapshot.paths_digest;
  out.patch_sha256 = "sha256:" + store::Sha256Hex(derived->patch);
  out.engine = derived->engine;
  out.source = loaded->source;
  GENTLE_RETURN_IF_ERROR(FillApprover(repo, record, fetched_tip, &out));
  if (policy) GENTLE_RETURN_IF_ERROR(FillCounted(repo, record, fetched_tip, *policy, &out));
  return out;
}

std::string RenderStatement(const Attestation& a) {
  using Json = nlohmann::ordered_json;
  auto or_null = [](const std::optional<std::string>& value) {
    return value ? Json(*value) : Json(nullptr);
  };
  Json subject;
  subject["name"] = "git-tree:" + a.candidate_tree;
  subject["digest"]["gitTree"] = a.candidate_tree;
  Json j;
  j["_type"] = kStatementType;
  j["subject"] = Json::array({subject});
  j["predicateType"] = kApprovalPredicateType;
  Json& p = j["predicate"];
  p["lineage"] = a.lineage;
  p["revision"] = a.revision;
  p["verdict"] = store::VerdictName(a.verdict);
  p["actor"] = or_null(a.actor);
  p["role"] = a.role ? Json(a.role->text()) : Json(nullptr);
  p["base_tree"] = a.base_tree;
  p["candidate_tree"] = a.candidate_tree;
  p["paths_digest"] = a.paths_digest;
  p["patch_sha256"] = a.patch_sha256;
  Json& derivation = p["derivation"];
  derivation["git_flags"] = PinnedDiffFlags();
  derivation["engine"] = std::string(EngineName(a.engine));
  derivation["tool_version"] = kToolVersion;
  p["history_commit"] = or_null(a.history_commit);
  p["consumed"] = a.consumed;
  p["source"] = a.source.empty() ? Json(nullptr) : Json(a.source);
  p["signed"] = a.is_signed;
  if (a.approvals) {
    Json list = Json::array();
    for (const JudgedApproval& counted : *a.approvals) {
      Json entry;
      entry["principal"] = counted.principal;
      entry["key"] = counted.key.empty() ? Json(nullptr) : Json(counted.key);
      entry["history_commit"] = counted.approval.commit;
      entry["kind"] = std::string(store::ApprovalKindName(counted.approval.kind));
      entry["actor"] = counted.approval.actor;
      entry["role"] = counted.approval.role.text();
      list.push_back(std::move(entry));
    }
    p["approvals"] = std::move(list);
  }
  return store::MarshalCompact(j) + "\n";
}

}  // namespace gentle::exporter
