#include "transaction/retire.h"

#include <sys/stat.h>

#include "store/audit_record.h"
#include "store/catalog.h"
#include "store/clock.h"
#include "store/fault_point.h"
#include "store/file_io.h"
#include "store/file_modes.h"
#include "store/file_write.h"
#include "store/git/review_refs_write.h"
#include "store/history_ref.h"
#include "store/history_verb.h"
#include "store/lineage_id.h"
#include "store/record.h"
#include "store/review_state.h"
#include "store/secret.h"
#include "store/store_scan.h"
#include "transaction/abandon_reason.h"
#include "transaction/history_writer.h"
#include "transaction/mutation.h"
#include "transaction/quarantine_move.h"

namespace gentle::transaction {

namespace {

// `record`: the lineage's record (abandon), or null (reclaim: there is none). `reason`: what the
// audit record names.
Result<RetireResult> MoveToQuarantine(MutationScope* scope, const RetireRequest& request,
                                      const std::string& reason, const std::string& verb,
                                      const store::RecordView* record,
                                      const nlohmann::ordered_json* extra) {
  const store::StoreLayout& layout = scope->layout;
  const std::string& lineage = request.lineage;
  const std::string source = layout.lineage_dir(lineage);
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> residue, store::ListDirectory(source));

  store::AuditRecord audit;
  audit.lineage_id = lineage;
  audit.reason = reason;
  audit.actor = Trimmed(request.actor);
  audit.reclaimed_at = store::NowRfc3339();
  audit.source_path = source;
  audit.residue = residue;

  GENTLE_RETURN_IF_ERROR(OpenIndex(scope));
  GENTLE_ASSIGN_OR_RETURN(QuarantineEntry entry,
                          PrepareQuarantine(scope, &audit, record, extra, verb));
  const std::string& name = entry.name;
  const std::string& qdir = entry.dir;
  const std::string& audit_path = entry.audit_path;
  const std::string committed_bytes = CommittedAuditBytes(audit, extra);
  if (record != nullptr) {
    // The terminal history commit (the record and the committed audit record) before the move,
    // the point of no return: recovery rolls it back if the move never happened.
    GENTLE_ASSIGN_OR_RETURN(
        std::string record_file,
        store::ReadFileLimited(layout.record_path(lineage), store::kMaxRecordBytes));
    store::HistoryCommitSpec history;
    history.verb = store::HistoryVerb::kAbandon;
    history.lineage = lineage;
    history.record_file = record_file;
    history.revision = record->revision;
    history.state = store::TerminalState::kRetired;
    history.base_tree = record->current_snapshot.base_tree;
    history.candidate_tree = record->current_snapshot.candidate_tree;
    history.at = audit.reclaimed_at;
    history.files.emplace_back(std::string(store::kHistoryAuditName), committed_bytes);
    GENTLE_RETURN_IF_ERROR(AppendHistory(scope->repo, layout, std::move(history)));
  }
  GENTLE_RETURN_IF_ERROR(store::RenameDurable(source, store::ResiduePath(layout, name)));
  store::FaultPoint(verb + ":moved");
  GENTLE_RETURN_IF_ERROR(CommitQuarantineAudit(entry, committed_bytes, &audit));
  store::FaultPoint(verb + ":audit-committed");
  GENTLE_RETURN_IF_ERROR(scope->index->CommitStepTransaction([&]() -> Status {
    GENTLE_RETURN_IF_ERROR(scope->index->MarkQuarantineCommitted(name));
    return scope->index->DeleteLineage(lineage);
  }));
  store::FaultPoint(verb + ":index-committed");

  RetireResult result;
  result.lineage = lineage;
  result.operation = "review/" + verb;
  result.audit_record = audit_path;
  result.quarantine_path = qdir;
  result.reason = audit.reason;
  result.actor = audit.actor;
  result.reclaimed_at = audit.reclaimed_at;
  return result;
}

Status ValidateCommon(const RetireRequest& request) {
  GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(request.lineage));
  GENTLE_RETURN_IF_ERROR(RequireText("--reason", request.reason));
  GENTLE_RETURN_IF_ERROR(RequireText("--actor", request.actor));
  return CheckExpectedRevision(request.expected_revision);
}

// Abandon of a lineage whose record cannot be read (`damage`: why, as status reports it): its
// directory moves into quarantine as it is, byte for byte (a rename: nothing is read, followed
// or rewritten), with an audit record naming the damage. No history commit: there is no record
// to commit. Not with --expected-revision (an unreadable record has no revision to compare).
Result<RetireResult> AbandonCorrupted(MutationScope* scope, const RetireRequest& request,
                                      const std::string& reason, const Status& damage) {
  const store::StoreLayout& layout = scope->layout;
  if (request.expected_revision ||
      store::KindOf(layout.lineage_dir(request.lineage)) != store::PathKind::kDirectory) {
    return damage;
  }
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> tip,
                          store::LocalHistoryTip(scope->repo, request.lineage));
  nlohmann::ordered_json extra;
  nlohmann::ordered_json& d = extra["damage"];
  d["code"] = std::string(CodeName(damage.code()));
  d["message"] = damage.message();
  // The history cannot end in an abandon commit (there is no record to commit): its tip is named
  // here, and the ref removed once the entry is quarantined.
  d["history_tip"] = tip ? nlohmann::ordered_json(*tip) : nlohmann::ordered_json(nullptr);
  GENTLE_ASSIGN_OR_RETURN(RetireResult result,
                          MoveToQuarantine(scope, request, reason, "abandon", nullptr, &extra));
  if (tip) {
    GENTLE_RETURN_IF_ERROR(store::git::DeleteHistoryRefUnlessLocked(scope->repo, request.lineage));
  }
  return result;
}

}  // namespace

Result<RetireResult> Abandon(const RetireRequest& request) {
  GENTLE_RETURN_IF_ERROR(ValidateCommon(request));
  const std::optional<AbandonReason> reason = ParseAbandonReason(request.reason);
  if (!reason) {
    return Status(Code::kUsage,
                  "--reason must be " +
                      std::string(AbandonReasonName(AbandonReason::kOperatorDisposition)) + " or " +
                      std::string(AbandonReasonName(AbandonReason::kRetiredSchema)) +
                      " for abandon");
  }
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<MutationScope> scope,
                          LockStore(request.cwd, LockKind::kWriter));
  store::FaultPoint("abandon:locked");
  auto loaded = LoadForMutation(*scope, request.lineage, request.expected_revision, "abandon");
  if (!loaded.ok() && loaded.status().code() == Code::kCorrupted) {
    return AbandonCorrupted(scope.get(), request, std::string(AbandonReasonName(*reason)),
                            Status(loaded.status()).WithLineage(request.lineage));
  }
  GENTLE_ASSIGN_OR_RETURN(store::RecordView record, std::move(loaded));
  if (!store::AcceptsAbandon(record.state)) {
    return Status(Code::kWrongState, "lineage " + request.lineage + " is " + record.state.name() +
                                         "; a terminal lineage cannot be abandoned")
        .WithLineage(request.lineage)
        .WithDetail(DetailKey::kState, record.state.name());
  }
  nlohmann::ordered_json extra;
  nlohmann::ordered_json& a = extra["abandonment"];
  a["schema"] = "gentle-ai.review-abandon-authorization/v2";
  a["lineage_id"] = request.lineage;
  a["revision"] = record.revision;
  a["snapshot_identity"] = record.initial_snapshot.identity;
  a["discarded_work"]["captured_lens_results"] = nlohmann::ordered_json::array();
  a["discarded_work"]["findings_present"] = false;
  GENTLE_ASSIGN_OR_RETURN(
      RetireResult result,
      MoveToQuarantine(scope.get(), request, std::string(AbandonReasonName(*reason)), "abandon",
                       &record, &extra));
  result.revision = record.revision;
  return result;
}

Result<RetireResult> Reclaim(const RetireRequest& request) {
  GENTLE_RETURN_IF_ERROR(ValidateCommon(request));
  if (request.expected_revision) {
    return Status(Code::kUsage, "reclaim takes no --expected-revision: the entry has no record");
  }
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<MutationScope> scope,
                          LockStore(request.cwd, LockKind::kWriter));
  store::FaultPoint("reclaim:locked");
  const store::StoreLayout& layout = scope->layout;
  GENTLE_RETURN_IF_ERROR(
      store::CheckNoSymlinks(layout.common_dir(), layout.record_path(request.lineage)));
  if (store::KindOf(layout.lineage_dir(request.lineage)) != store::PathKind::kDirectory) {
    GENTLE_ASSIGN_OR_RETURN(store::RecordView unused,
                            LoadForMutation(*scope, request.lineage, std::nullopt, "reclaim"));
    (void)unused;
    return Status(Code::kInternal, "lineage directory vanished under the lock");
  }
  if (store::KindOf(layout.record_path(request.lineage)) != store::PathKind::kMissing) {
    return Status(Code::kWrongState, "lineage " + request.lineage +
                                         " is a complete entry (it has a record); use `review "
                                         "abandon`")
        .WithLineage(request.lineage)
        .WithDetail(DetailKey::kOperation, "abandon");
  }
  // The writer's recovery runs before anything is moved: an interrupted start of this tool (a
  // prepared index row) is undone, its directory included, and then nothing is left to reclaim.
  GENTLE_RETURN_IF_ERROR(OpenIndex(scope.get()));
  if (store::KindOf(layout.lineage_dir(request.lineage)) == store::PathKind::kMissing) {
    Status absent = store::ClassifyAbsent(layout, request.lineage);
    if (absent.code() != Code::kNotFound) return absent;
    return Status(Code::kNotFound, "lineage " + request.lineage +
                                       " was an interrupted start, undone by recovery; nothing "
                                       "is left to reclaim")
        .WithLineage(request.lineage);
  }
  return MoveToQuarantine(scope.get(), request, Trimmed(request.reason), "reclaim", nullptr,
                          nullptr);
}

}  // namespace gentle::transaction
