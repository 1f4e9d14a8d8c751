// MutationScope: the common frame of every mutating operation on a lineage (docs/format.md,
// docs/lifecycle.md).
//
//   LockStore          discover the repository, check the batch marker, take the store locks
//                      (shared or exclusive maintenance lock, then v2/LOCK).
//   LoadForMutation    the lineage's record under the lock; an absent record is classified
//                      (not_found / consumed / retired; an incomplete entry is corrupted), a
//                      historical-compat record is read_only, an expected revision that differs
//                      is conflict.
//   OpenIndex          the index for writing (interrupted mutations recovered first). Operations
//                      call it only after every refusal check, so a refused command writes nothing.
//   CommitState        the one protocol for rewriting a record: prepared index row, history commit
//                      (the prepared tip, transaction/history_writer.h), atomic record write,
//                      committed row, with a fault point after each durable step.
#ifndef GENTLE_TRANSACTION_MUTATION_H_
#define GENTLE_TRANSACTION_MUTATION_H_

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "store/git/repository.h"
#include "store/history_ref.h"
#include "store/history_verb.h"
#include "store/index/index_db.h"
#include "store/layout.h"
#include "store/record.h"
#include "store/status.h"
#include "store/store_guard.h"

namespace gentle::transaction {

struct MutationScope {
  store::git::Repository repo;
  store::StoreLayout layout;
  store::StoreGuard guard;
  std::unique_ptr<store::index::IndexDb> index;
};

enum class LockKind { kWriter, kMaintenance };

Result<std::unique_ptr<MutationScope>> LockStore(const std::string& cwd, LockKind kind);

Result<store::RecordView> LoadForMutation(const MutationScope& scope, const std::string& lineage,
                                          const std::optional<std::string>& expected_revision,
                                          std::string_view verb);
// The same checks on `layout`, for a verb that reads the record before it takes the writer lock
// (the caller holds at least the shared lock, StoreGuard::ForRead).
Result<store::RecordView> LoadForMutation(const store::git::Repository& repo,
                                          const store::StoreLayout& layout,
                                          const std::string& lineage,
                                          const std::optional<std::string>& expected_revision,
                                          std::string_view verb);

Status OpenIndex(MutationScope* scope);

// Whether a writer's recovery has work: the index is missing or unreadable without writes, or holds
// a prepared row. Read-only.
Result<bool> NeedsRecovery(const store::StoreLayout& layout);

// The record's state as an ordered JSON object (member order and unknown members preserved).
Result<nlohmann::ordered_json> StateOf(const store::RecordView& record);

// Writes `state` as the new record of `previous`'s lineage (`previous`: its record as
// LoadForMutation read it, under the same lock). `history` gives the history commit's time, files
// and extra trailers; its verb, lineage, record, revision, state and trees are filled here. Fault
// points: <verb>:index-prepared, <verb>:history-prepared, <verb>:record-written,
// <verb>:index-committed. With `history.sign` (a signed approval) the commit is written and
// signed before the index is opened (transaction/history_writer.h, PrepareHistoryCommit), so a
// signing failure changes nothing.
Result<store::RecordView> CommitState(MutationScope* scope, const store::RecordView& previous,
                                      const nlohmann::ordered_json& state, store::HistoryVerb verb,
                                      store::HistoryCommitSpec history);

// Usage checks shared by the verbs.
Status RequireText(std::string_view flag, const std::string& value);
Status CheckExpectedRevision(const std::optional<std::string>& expected_revision);
std::string Trimmed(const std::string& text);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_MUTATION_H_
