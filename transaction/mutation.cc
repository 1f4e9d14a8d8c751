#include "transaction/mutation.h"

#include "store/catalog.h"
#include "store/compact_state.h"
#include "store/digests.h"
#include "store/fault_point.h"
#include "store/file_io.h"
#include "store/file_modes.h"
#include "store/file_write.h"
#include "store/history_evidence.h"
#include "store/history_sync.h"
#include "store/index/index_reader.h"
#include "store/index/index_sync.h"
#include "store/store_scan.h"
#include "store/strict_json.h"
#include "transaction/history_writer.h"

namespace gentle::transaction {

Result<std::unique_ptr<MutationScope>> LockStore(const std::string& cwd, LockKind kind) {
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(cwd));
  store::StoreLayout layout(repo.common_dir());
  GENTLE_RETURN_IF_ERROR(store::CheckBatchMarker(layout));
  auto guard = kind == LockKind::kMaintenance ? store::StoreGuard::ForMaintenance(layout)
                                              : store::StoreGuard::ForWrite(layout);
  if (!guard.ok()) return guard.status();
  return std::unique_ptr<MutationScope>(
      new MutationScope{std::move(repo), std::move(layout), std::move(guard).value(), nullptr});
}

Result<store::RecordView> LoadForMutation(const MutationScope& scope, const std::string& lineage,
                                          const std::optional<std::string>& expected_revision,
                                          std::string_view verb) {
  return LoadForMutation(scope.repo, scope.layout, lineage, expected_revision, verb);
}

Result<store::RecordView> LoadForMutation(const store::git::Repository& repo,
                                          const store::StoreLayout& layout,
                                          const std::string& lineage,
                                          const std::optional<std::string>& expected_revision,
                                          std::string_view verb) {
  auto record = store::LoadRecord(layout, lineage);
  if (!record.ok()) {
    if (record.status().code() != Code::kNotFound) return record.status();
    return store::AnswerRecordless(repo, layout, lineage);
  }
  if (record->historical_compat) {
    return Status(Code::kReadOnly, "historical compatibility authority is read-only: " +
                                       std::string(verb) + " for lineage " + lineage)
        .WithLineage(lineage);
  }
  if (expected_revision && *expected_revision != record->revision) {
    return Status(Code::kConflict, "review transaction changed concurrently: expected revision " +
                                       *expected_revision + ", found " + record->revision)
        .WithLineage(lineage)
        .WithDetail(DetailKey::kExpectedRevision, *expected_revision)
        .WithDetail(DetailKey::kRevision, record->revision);
  }
  return record;
}

Status OpenIndex(MutationScope* scope) {
  if (scope->index) return Status::Ok();
  GENTLE_ASSIGN_OR_RETURN(scope->index,
                          store::index::OpenIndexForWriter(scope->repo, scope->layout));
  return Status::Ok();
}

Result<bool> NeedsRecovery(const store::StoreLayout& layout) {
  auto db = store::index::OpenIndexForReader(layout);
  if (!db.ok() || !*db) return true;
  GENTLE_ASSIGN_OR_RETURN(store::index::IndexSnapshot prepared, (*db)->ListPrepared());
  return !prepared.lineages.empty() || !prepared.tombstones.empty() || !prepared.quarantine.empty();
}

Result<nlohmann::ordered_json> StateOf(const store::RecordView& record) {
  // Linear in the number of members: a record may carry many members this tool does not know, and
  // every one of them is kept, in order.
  nlohmann::ordered_json state;
  store::StrictJsonRefusal why;
  if (!store::ParseStrictOrderedJson(record.compact_state, store::kMaxRecordDepth, &state, &why)) {
    return Status(Code::kCorrupted, "record state does not parse: " + why.detail)
        .WithLineage(record.lineage_id);
  }
  return state;
}

Result<store::RecordView> CommitState(MutationScope* scope, const store::RecordView& previous,
                                      const nlohmann::ordered_json& state, store::HistoryVerb verb,
                                      store::HistoryCommitSpec history) {
  const std::string v(store::HistoryVerbName(verb));
  const std::string& lineage = previous.lineage_id;
  // Only gentle-ai's CompactState members, in its order: what earlier builds added is dropped (a
  // record of an earlier build is migrated here; the history's sync commit keeps it as it was).
  std::string revision;
  const std::string file = store::EncodeRecordFile(store::ToCompactState(state), &revision);
  GENTLE_ASSIGN_OR_RETURN(store::RecordView written, store::ParseRecordFile(file, lineage));
  history.verb = verb;
  history.lineage = lineage;
  history.record_file = file;
  history.revision = written.revision;
  history.state = written.state;
  history.base_tree = written.current_snapshot.base_tree;
  history.candidate_tree = written.current_snapshot.candidate_tree;
  // A signed commit is written (and signed) before the index is opened: a signing failure is a
  // refusal that leaves the store, the index and the refs as they were.
  std::optional<PreparedHistory> prepared;
  if (history.sign) {
    GENTLE_ASSIGN_OR_RETURN(prepared, PrepareHistoryCommit(scope->repo, scope->layout, history));
  }
  GENTLE_RETURN_IF_ERROR(OpenIndex(scope));
  store::index::LineageRow row = store::LineageRowOf(written, store::index::RowStatus::kPrepared);
  row.created_at = store::CreationTimes(&scope->repo).Of(previous);
  GENTLE_RETURN_IF_ERROR(scope->index->UpsertLineage(row));
  store::FaultPoint(v + ":index-prepared");
  GENTLE_RETURN_IF_ERROR(AppendHistory(scope->repo, scope->layout, std::move(history), prepared));
  GENTLE_RETURN_IF_ERROR(
      store::WriteFileAtomic(scope->layout.record_path(lineage), file, store::kRecordFileMode));
  store::FaultPoint(v + ":record-written");
  GENTLE_RETURN_IF_ERROR(scope->index->CommitStepTransaction(
      [&] { return scope->index->MarkLineageCommitted(lineage); }));
  store::FaultPoint(v + ":index-committed");
  return written;
}

Status RequireText(std::string_view flag, const std::string& value) {
  if (Trimmed(value).empty()) {
    return Status(Code::kUsage, std::string(flag) + " is required and must not be blank");
  }
  return Status::Ok();
}

Status CheckExpectedRevision(const std::optional<std::string>& expected_revision) {
  if (expected_revision && !store::IsSha256Id(*expected_revision)) {
    return Status(Code::kUsage, "--expected-revision must be sha256:<64 lowercase hex>");
  }
  return Status::Ok();
}

std::string Trimmed(const std::string& text) {
  const char* space = " \t\r\n";
  size_t begin = text.find_first_not_of(space);
  if (begin == std::string::npos) return "";
  size_t end = text.find_last_not_of(space);
  return text.substr(begin, end - begin + 1);
}

}  // namespace gentle::transaction
