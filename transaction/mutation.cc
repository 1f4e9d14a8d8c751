#include "transaction/mutation.h"

#include "store/catalog.h"
#include "store/digests.h"
#include "store/fault_point.h"
#include "store/file_io.h"
#include "store/file_write.h"
#include "store/index/index_sync.h"
#include "store/store_scan.h"
#include "store/strict_json.h"

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
  auto record = store::LoadRecord(scope.layout, lineage);
  if (!record.ok()) {
    if (record.status().code() != Code::kNotFound) return record.status();
    return store::ClassifyRecordless(scope.layout, lineage);
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
        .WithDetail("expected_revision", *expected_revision)
        .WithDetail("revision", record->revision);
  }
  return record;
}

Status OpenIndex(MutationScope* scope) {
  if (scope->index) return Status::Ok();
  GENTLE_ASSIGN_OR_RETURN(scope->index,
                          store::index::OpenIndexForWriter(scope->repo, scope->layout));
  return Status::Ok();
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

Result<store::RecordView> CommitState(MutationScope* scope, const nlohmann::ordered_json& state,
                                      const std::string& lineage, std::string_view verb) {
  const std::string v(verb);
  std::string revision;
  const std::string file = store::EncodeRecordFile(state, &revision);
  GENTLE_ASSIGN_OR_RETURN(store::RecordView written, store::ParseRecordFile(file, lineage));
  GENTLE_RETURN_IF_ERROR(OpenIndex(scope));
  GENTLE_RETURN_IF_ERROR(scope->index->UpsertLineage(
      store::LineageRowOf(written, store::index::RowStatus::kPrepared)));
  store::FaultPoint(v + ":index-prepared");
  GENTLE_RETURN_IF_ERROR(store::WriteFileAtomic(scope->layout.record_path(lineage), file));
  store::FaultPoint(v + ":record-written");
  GENTLE_RETURN_IF_ERROR(scope->index->MarkLineageCommitted(lineage));
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
