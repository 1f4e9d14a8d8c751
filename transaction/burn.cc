#include "transaction/burn.h"

#include <git2.h>

#include <optional>

#include "store/clock.h"
#include "store/digests.h"
#include "store/fault_point.h"
#include "store/file_io.h"
#include "store/file_modes.h"
#include "store/file_write.h"
#include "store/history_ref.h"
#include "store/history_verb.h"
#include "store/json_member.h"
#include "store/lineage_id.h"
#include "store/record.h"
#include "store/review_state.h"
#include "store/secret.h"
#include "store/snapshot.h"
#include "store/store_scan.h"
#include "store/tombstone.h"
#include "transaction/history_writer.h"
#include "transaction/mutation.h"

namespace gentle::transaction {
namespace {

// Worktree roots of the repository: the main worktree and every linked one.
std::vector<std::string> WorktreeRoots(const store::git::Repository& repo) {
  std::vector<std::string> roots;
  if (!repo.worktree_root().empty()) roots.push_back(repo.worktree_root());
  const std::string& common = repo.common_dir();
  if (common.size() > 5 && common.compare(common.size() - 5, 5, "/.git") == 0) {
    roots.push_back(common.substr(0, common.size() - 5));
  }
  git_strarray names = {nullptr, 0};
  if (git_worktree_list(&names, repo.raw()) == 0) {
    for (size_t i = 0; i < names.count; ++i) {
      git_worktree* wt = nullptr;
      if (git_worktree_lookup(&wt, repo.raw(), names.strings[i]) == 0) {
        roots.push_back(store::git::CanonicalPath(git_worktree_path(wt)));
        git_worktree_free(wt);
      }
    }
    git_strarray_dispose(&names);
  }
  return roots;
}

// The worktree root whose identity the record was started in, or the current worktree's.
Result<std::string> OriginalWorktreeRoot(const store::git::Repository& repo,
                                         const nlohmann::ordered_json& state, bool* original) {
  std::string recorded;
  if (const auto* start =
          store::TypedMember(state, "initial_atomic_start", nlohmann::json::value_t::object)) {
    recorded = store::StringMember(*start, "worktree_identity");
  }
  *original = true;
  if (!recorded.empty()) {
    for (const std::string& root : WorktreeRoots(repo)) {
      if (root.empty()) continue;
      auto candidate = store::git::Repository::Discover(root);
      if (candidate.ok() && candidate->worktree_root() == root &&
          candidate->WorktreeIdentity() == recorded) {
        return root;
      }
    }
  }
  *original = false;
  if (repo.worktree_root().empty()) {
    return Status(Code::kUsage, "the lineage's worktree is gone; run burn from a worktree");
  }
  return repo.worktree_root();
}

Status CheckToken(const nlohmann::ordered_json& state, const std::string& token,
                  const std::string& lineage) {
  const std::string digest = store::StringMember(state, "approved_ack_token_sha256");
  const std::string go_token = store::StringMember(state, "approved_ack_token");
  bool match = false;
  if (!digest.empty()) {
    match = store::ConstantTimeEqual(store::TokenDigest(token), digest);
  } else if (!go_token.empty()) {
    match = store::ConstantTimeEqual(token, go_token);
  }
  if (!match) {
    return Status(Code::kForbidden, "the acknowledgement token does not match lineage " + lineage)
        .WithLineage(lineage);
  }
  return Status::Ok();
}

}  // namespace

Result<BurnResult> Burn(const BurnRequest& request) {
  GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(request.lineage));
  if (!store::IsTokenSyntax(request.token)) {
    return Status(Code::kUsage, "--token must be 64 lowercase hex digits");
  }
  if (!store::IsSha256Id(request.expected_revision)) {
    return Status(Code::kUsage, "--expected-revision is required: sha256:<64 lowercase hex>");
  }
  const std::string& lineage = request.lineage;
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<MutationScope> scope,
                          LockStore(request.cwd, LockKind::kMaintenance));
  store::FaultPoint("burn:locked");
  GENTLE_ASSIGN_OR_RETURN(store::RecordView record,
                          LoadForMutation(*scope, lineage, request.expected_revision, "burn"));
  if (!record.state.Is(store::ReviewState::kApproved)) {
    return Status(Code::kWrongState, "lineage " + lineage + " is " + record.state.name() +
                                         "; only an approved lineage can be burned")
        .WithLineage(lineage)
        .WithDetail(DetailKey::kState, record.state.name());
  }
  GENTLE_ASSIGN_OR_RETURN(nlohmann::ordered_json state, StateOf(record));
  GENTLE_RETURN_IF_ERROR(CheckToken(state, request.token, lineage));

  BurnResult result;
  result.lineage = lineage;
  result.revision = record.revision;
  result.target_identity = record.current_snapshot.identity;
  GENTLE_ASSIGN_OR_RETURN(std::string root,
                          OriginalWorktreeRoot(scope->repo, state, &result.original_worktree));
  result.repository = store::RepoKey(root);
  const std::string key = store::TombstoneKey(result.repository, result.target_identity);
  const store::StoreLayout& layout = scope->layout;
  result.tombstone = store::TombstonePath(layout, key);
  // A round bound to a forge context has its comment ids in its identity; the same trees asked
  // about without them (status with the PR's selector, start without that context) are spent too:
  // a second tombstone names them (docs/lifecycle.md, "review burn").
  std::optional<std::string> unbound;
  if (!record.current_snapshot.ledger_ids.empty()) {
    store::Snapshot trees = record.current_snapshot;
    trees.ledger_ids.clear();
    unbound = store::ComputeSnapshotIdentity(trees);
  }
  const std::string unbound_key =
      unbound ? store::TombstoneKey(result.repository, *unbound) : std::string();

  GENTLE_RETURN_IF_ERROR(OpenIndex(scope.get()));
  // Those trees burned already (an earlier lineage without a context): that tombstone stays.
  // Asked after the index is open, so an interrupted burn's tombstones are resolved first.
  if (unbound && store::KindOf(store::TombstonePath(scope->layout, unbound_key)) !=
                     store::PathKind::kMissing) {
    unbound.reset();
  }
  // Every row the burn touches is prepared, so a reader meeting any resolves it from files.
  GENTLE_RETURN_IF_ERROR(scope->index->WriteTransaction([&]() -> Status {
    GENTLE_RETURN_IF_ERROR(scope->index->UpsertTombstone(
        store::index::TombstoneRow{key, lineage, result.target_identity, result.repository,
                                   store::index::RowStatus::kPrepared}));
    if (unbound) {
      GENTLE_RETURN_IF_ERROR(scope->index->UpsertTombstone(store::index::TombstoneRow{
          unbound_key, lineage, *unbound, result.repository, store::index::RowStatus::kPrepared}));
    }
    return scope->index->UpsertLineage(
        store::LineageRowOf(record, store::index::RowStatus::kPrepared));
  }));
  store::FaultPoint("burn:index-prepared");
  // The terminal history commit (the burned record and the tombstone) before any file changes: the
  // record is about to go, and the history keeps it, so the approval stays verifiable.
  const std::string tombstone =
      store::EncodeTombstone(result.repository, result.target_identity, lineage);
  GENTLE_ASSIGN_OR_RETURN(
      std::string record_file,
      store::ReadFileLimited(layout.record_path(lineage), store::kMaxRecordBytes));
  store::HistoryCommitSpec history;
  history.verb = store::HistoryVerb::kBurn;
  history.lineage = lineage;
  history.record_file = record_file;
  history.revision = record.revision;
  history.state = store::TerminalState::kConsumed;
  history.base_tree = record.current_snapshot.base_tree;
  history.candidate_tree = record.current_snapshot.candidate_tree;
  history.at = store::NowRfc3339();
  history.files.emplace_back(std::string(store::kHistoryTombstoneName), tombstone);
  GENTLE_RETURN_IF_ERROR(AppendHistory(scope->repo, layout, std::move(history)));
  GENTLE_RETURN_IF_ERROR(
      store::EnsureDirectory(layout.common_dir(), layout.tombstone_dir(), store::kStoreDirMode));
  GENTLE_RETURN_IF_ERROR(
      store::WriteFileAtomic(result.tombstone, tombstone, store::kRecordFileMode));
  if (unbound) {
    GENTLE_RETURN_IF_ERROR(store::WriteFileAtomic(
        store::TombstonePath(layout, unbound_key),
        store::EncodeTombstone(result.repository, *unbound, lineage), store::kRecordFileMode));
  }
  store::FaultPoint("burn:tombstone-written");
  GENTLE_RETURN_IF_ERROR(store::RemoveTree(layout.record_path(lineage)));
  GENTLE_RETURN_IF_ERROR(store::SyncDirectory(layout.lineage_dir(lineage)));
  store::FaultPoint("burn:record-removed");
  for (const std::string& extra :
       {layout.root() + "/effect-markers/v1/" + lineage, layout.root() + "/incidents/" + lineage}) {
    GENTLE_RETURN_IF_ERROR(store::CheckNoSymlinks(layout.common_dir(), extra));
    GENTLE_RETURN_IF_ERROR(store::RemoveTree(extra));
  }
  GENTLE_RETURN_IF_ERROR(store::RemoveTree(layout.lineage_dir(lineage)));
  GENTLE_RETURN_IF_ERROR(store::SyncDirectory(layout.v2_dir()));
  store::FaultPoint("burn:lineage-removed");
  GENTLE_RETURN_IF_ERROR(scope->index->CommitStepTransaction([&]() -> Status {
    GENTLE_RETURN_IF_ERROR(scope->index->MarkTombstoneCommitted(key));
    if (unbound) GENTLE_RETURN_IF_ERROR(scope->index->MarkTombstoneCommitted(unbound_key));
    return scope->index->DeleteLineage(lineage);
  }));
  store::FaultPoint("burn:index-committed");
  return result;
}

}  // namespace gentle::transaction
