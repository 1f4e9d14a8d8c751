#include "transaction/import.h"

#include <nlohmann/json.hpp>
#include <unordered_map>

#include "store/audit_record.h"
#include "store/catalog.h"
#include "store/digests.h"
#include "store/fault_point.h"
#include "store/file_io.h"
#include "store/file_modes.h"
#include "store/file_write.h"
#include "store/history_chain.h"
#include "store/history_evidence.h"
#include "store/history_ref.h"
#include "store/history_sync.h"
#include "store/history_verb.h"
#include "store/lineage_id.h"
#include "store/provenance.h"
#include "store/store_scan.h"
#include "store/strict_json.h"
#include "store/tombstone.h"
#include "transaction/mutation.h"
#include "transaction/quarantine_move.h"

namespace gentle::transaction {
namespace {

// The fetched history to import: --remote's, or the only one (several remotes agreeing on the
// tip count as one).
Result<store::FetchedHistory> PickFetched(const store::git::Repository& repo,
                                          const ImportRequest& request) {
  GENTLE_ASSIGN_OR_RETURN(std::vector<store::FetchedHistory> found,
                          store::ListFetchedHistories(repo, request.lineage));
  std::vector<store::FetchedHistory> candidates;
  for (store::FetchedHistory& h : found) {
    if (!request.remote || h.remote == *request.remote) candidates.push_back(std::move(h));
  }
  if (candidates.empty()) {
    return Status(Code::kNotFound,
                  "no fetched history of lineage " + request.lineage +
                      (request.remote ? " from remote " + *request.remote : std::string()) +
                      "; run `review fetch` first")
        .WithLineage(request.lineage);
  }
  for (const store::FetchedHistory& h : candidates) {
    if (h.tip != candidates.front().tip) {
      return Status(Code::kAmbiguous, "lineage " + request.lineage +
                                          " was fetched from remotes with different histories; "
                                          "name one with --remote")
          .WithLineage(request.lineage)
          .WithRemoteDetail(candidates.front().remote, candidates.front().tip)
          .WithRemoteDetail(h.remote, h.tip);
    }
  }
  return candidates.front();
}

// Whether `ancestor` is on the first-parent history of `tip` (the local history).
Result<bool> LocalDescendsFrom(const store::git::Repository& repo, const std::string& tip,
                               const std::string& ancestor) {
  std::optional<std::string> next = tip;
  for (size_t steps = 0; next && steps < store::kMaxHistoryCommits; ++steps) {
    if (*next == ancestor) return true;
    GENTLE_ASSIGN_OR_RETURN(store::HistoryCommit commit,
                            store::ReadHistoryCommit(repo, *next, store::RecordBytes::kSkip));
    next = commit.parent;
  }
  return false;
}

Status Diverged(const std::string& lineage, const std::string& local, const std::string& fetched,
                const std::string& why) {
  return Status(Code::kConflict, "lineage " + lineage + ": " + why)
      .WithLineage(lineage)
      .WithDetail(DetailKey::kLocalTip, local)
      .WithDetail(DetailKey::kFetchedTip, fetched);
}

enum class LocalEntry { kNone, kRecord, kConsumed, kRetired };

// What the store holds for the lineage besides its history.
Result<LocalEntry> ReadLocalEntry(const store::git::Repository& repo,
                                  const store::StoreLayout& layout, const std::string& lineage) {
  auto record = store::LoadRecord(layout, lineage);
  if (record.ok()) {
    if (record->historical_compat) {
      return Status(Code::kReadOnly, "lineage " + lineage + " is a historical-compatibility record")
          .WithLineage(lineage);
    }
    return LocalEntry::kRecord;
  }
  if (record.status().code() != Code::kNotFound) return record.status();
  Status absent = store::ClassifyRecordlessHere(repo, layout, lineage);
  if (absent.code() == Code::kNotFound) return LocalEntry::kNone;
  if (absent.code() == Code::kConsumed) return LocalEntry::kConsumed;
  if (absent.code() == Code::kRetired) return LocalEntry::kRetired;
  return absent;
}

Status MoveRef(const MutationScope& scope, const std::string& lineage,
               const std::optional<std::string>& from, const std::string& to) {
  GENTLE_RETURN_IF_ERROR(store::MoveHistoryRef(scope.repo, lineage, from, to));
  store::FaultPoint("import:ref-moved");
  return Status::Ok();
}

// The record file, replaced atomically; a new lineage directory appears with its record in it
// (built beside it and renamed), so a reader never meets the directory without a record.
Status WriteRecordInPlace(const store::StoreLayout& layout, const std::string& lineage,
                          const std::string& record_file) {
  if (store::KindOf(layout.lineage_dir(lineage)) != store::PathKind::kMissing) {
    return store::WriteFileAtomic(layout.record_path(lineage), record_file, store::kRecordFileMode);
  }
  const std::string staged = layout.staged_lineage_dir(lineage);
  GENTLE_RETURN_IF_ERROR(store::RemoveTree(staged));
  GENTLE_RETURN_IF_ERROR(store::EnsureDirectory(layout.common_dir(), staged, store::kStoreDirMode));
  GENTLE_RETURN_IF_ERROR(store::WriteFileAtomic(
      staged + "/" + std::string(store::kHistoryRecordName), record_file, store::kRecordFileMode));
  return store::RenameDurable(staged, layout.lineage_dir(lineage));
}

Status ImportLive(MutationScope* scope, const store::VerifiedChain& chain,
                  const std::optional<std::string>& from) {
  const std::string& lineage = chain.record.lineage_id;
  const store::StoreLayout& layout = scope->layout;
  store::index::LineageRow row =
      store::LineageRowOf(chain.record, store::index::RowStatus::kPrepared);
  row.created_at = chain.tip().created_at;
  GENTLE_RETURN_IF_ERROR(scope->index->UpsertLineage(row));
  GENTLE_RETURN_IF_ERROR(
      store::EnsureDirectory(layout.common_dir(), layout.v2_dir(), store::kStoreDirMode));
  GENTLE_RETURN_IF_ERROR(WriteRecordInPlace(layout, lineage, chain.tip().record_file));
  store::FaultPoint("import:files-written");
  GENTLE_RETURN_IF_ERROR(MoveRef(*scope, lineage, from, chain.tip().id));
  return scope->index->MarkLineageCommitted(lineage);
}

Status RemoveLocalRecord(const store::StoreLayout& layout, const std::string& lineage) {
  if (store::KindOf(layout.lineage_dir(lineage)) == store::PathKind::kMissing) {
    return Status::Ok();
  }
  GENTLE_RETURN_IF_ERROR(store::RemoveTree(layout.record_path(lineage)));
  GENTLE_RETURN_IF_ERROR(store::SyncDirectory(layout.lineage_dir(lineage)));
  GENTLE_RETURN_IF_ERROR(store::RemoveTree(layout.lineage_dir(lineage)));
  return store::SyncDirectory(layout.v2_dir());
}

// A burn tip: this repository's tombstone for the approved target (as a burn here would write).
Status ImportBurn(MutationScope* scope, const store::VerifiedChain& chain,
                  const std::optional<std::string>& from, bool local_record) {
  const std::string& lineage = chain.record.lineage_id;
  const store::StoreLayout& layout = scope->layout;
  if (scope->repo.worktree_root().empty()) {
    return Status(Code::kUsage,
                  "import a burned lineage from a worktree (its tombstone is keyed "
                  "by the worktree root)");
  }
  const std::string repository = store::RepoKey(scope->repo.worktree_root());
  const std::string target = chain.record.current_snapshot.identity;
  const std::string key = store::TombstoneKey(repository, target);
  GENTLE_RETURN_IF_ERROR(scope->index->WriteTransaction([&]() -> Status {
    GENTLE_RETURN_IF_ERROR(scope->index->UpsertTombstone(store::index::TombstoneRow{
        key, lineage, target, repository, store::index::RowStatus::kPrepared}));
    if (!local_record) return Status::Ok();
    return scope->index->UpsertLineage(
        store::LineageRowOf(chain.record, store::index::RowStatus::kPrepared));
  }));
  GENTLE_RETURN_IF_ERROR(
      store::EnsureDirectory(layout.common_dir(), layout.tombstone_dir(), store::kStoreDirMode));
  GENTLE_RETURN_IF_ERROR(store::WriteFileAtomic(store::TombstonePath(layout, key),
                                                store::EncodeTombstone(repository, target, lineage),
                                                store::kRecordFileMode));
  GENTLE_RETURN_IF_ERROR(RemoveLocalRecord(layout, lineage));
  store::FaultPoint("import:files-written");
  GENTLE_RETURN_IF_ERROR(MoveRef(*scope, lineage, from, chain.tip().id));
  return scope->index->WriteTransaction([&]() -> Status {
    GENTLE_RETURN_IF_ERROR(scope->index->MarkTombstoneCommitted(key));
    return scope->index->DeleteLineage(lineage);
  });
}

// An abandon tip: a fresh quarantine entry holding the history's audit record (its paths made
// this store's) and, as residue, the abandoned record.
Status ImportAbandon(MutationScope* scope, const store::VerifiedChain& chain,
                     const std::optional<std::string>& from, bool local_record) {
  const std::string& lineage = chain.record.lineage_id;
  const store::StoreLayout& layout = scope->layout;
  GENTLE_ASSIGN_OR_RETURN(
      std::optional<std::string> audit_file,
      store::ReadHistoryFile(scope->repo, chain.tip().id, std::string(store::kHistoryAuditName)));
  GENTLE_ASSIGN_OR_RETURN(store::AuditRecord audit, store::ParseAuditRecord(audit_file.value()));
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();
  try {
    const auto parsed = nlohmann::ordered_json::parse(*audit_file);
    if (parsed.contains("abandonment")) extra["abandonment"] = parsed["abandonment"];
  } catch (const nlohmann::json::exception&) {
    return Status(Code::kCorrupted, "the abandon commit's audit record does not parse")
        .WithLineage(lineage);
  }
  audit.lineage_id = lineage;
  audit.source_path = layout.lineage_dir(lineage);
  audit.residue = {std::string(store::kHistoryRecordName)};
  const nlohmann::ordered_json* extras = extra.empty() ? nullptr : &extra;
  GENTLE_ASSIGN_OR_RETURN(
      QuarantineEntry entry,
      PrepareQuarantine(scope, &audit, local_record ? &chain.record : nullptr, extras, ""));
  const std::string& name = entry.name;
  const std::string& qdir = entry.dir;
  // The residue is staged beside it and renamed in whole: once residue/ exists, recovery commits
  // the entry.
  const std::string staging = qdir + "/residue.import";
  GENTLE_RETURN_IF_ERROR(
      store::EnsureDirectory(layout.common_dir(), staging, store::kQuarantineDirMode));
  GENTLE_RETURN_IF_ERROR(
      store::WriteFileAtomic(staging + "/" + std::string(store::kHistoryRecordName),
                             chain.tip().record_file, store::kRecordFileMode));
  GENTLE_RETURN_IF_ERROR(store::RenameDurable(staging, store::ResiduePath(layout, name)));
  GENTLE_RETURN_IF_ERROR(CommitQuarantineAudit(entry, CommittedAuditBytes(audit, extras), &audit));
  GENTLE_RETURN_IF_ERROR(RemoveLocalRecord(layout, lineage));
  store::FaultPoint("import:files-written");
  GENTLE_RETURN_IF_ERROR(MoveRef(*scope, lineage, from, chain.tip().id));
  return scope->index->WriteTransaction([&]() -> Status {
    GENTLE_RETURN_IF_ERROR(scope->index->MarkQuarantineCommitted(name));
    return scope->index->DeleteLineage(lineage);
  });
}

}  // namespace

Result<ImportResult> Import(const ImportRequest& request) {
  GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(request.lineage));
  if (request.remote) GENTLE_RETURN_IF_ERROR(store::ValidateRemoteName(*request.remote));
  const std::string& lineage = request.lineage;
  // The fetched history is chosen and verified before anything is locked or written: a forged or
  // damaged one never touches the store. Objects are immutable; the tip verified is the one used.
  store::FetchedHistory fetched;
  store::VerifiedChain chain;
  {
    GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo,
                            store::git::Repository::Discover(request.cwd));
    GENTLE_ASSIGN_OR_RETURN(fetched, PickFetched(repo, request));
    GENTLE_ASSIGN_OR_RETURN(
        chain, store::VerifyHistoryChain(repo, lineage, fetched.tip, request.progress));
  }
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<MutationScope> scope,
                          LockStore(request.cwd, LockKind::kMaintenance));
  store::FaultPoint("import:locked");
  const store::git::Repository& repo = scope->repo;
  GENTLE_ASSIGN_OR_RETURN(store::HistoryCheck check,
                          store::CheckHistory(repo, scope->layout, lineage));
  std::optional<store::HistoryCommit> local = std::move(check.tip);
  if (check.drift != store::HistoryDrift::kNone) {
    // Recovery first, as every writer does: an interrupted mutation or import is resolved and the
    // local history brought level with the files.
    GENTLE_RETURN_IF_ERROR(OpenIndex(scope.get()));
    GENTLE_RETURN_IF_ERROR(store::RollBackAhead(repo, scope->layout, lineage));
    GENTLE_RETURN_IF_ERROR(store::SyncHistory(repo, scope->layout, lineage, "").status());
    GENTLE_ASSIGN_OR_RETURN(local, store::ReadHistoryTip(repo, lineage));
  }
  if ((local ? std::optional<std::string>(local->id) : std::nullopt) != chain.local_tip) {
    // The local tip moved since the chain was verified: the commits above it are judged again.
    GENTLE_ASSIGN_OR_RETURN(chain, store::VerifyHistoryChain(repo, lineage, fetched.tip));
  }

  ImportResult result;
  result.lineage = lineage;
  result.remote = fetched.remote;
  result.fetched_tip = fetched.tip;
  result.local_tip_before = local ? local->id : "";
  const std::optional<store::TerminalState> terminal = store::TerminalStateOf(chain.terminal);
  result.state = terminal ? store::StateName(*terminal) : chain.record.state;
  result.revision = chain.record.revision;
  if (local && local->id == fetched.tip) {
    result.outcome = ImportOutcome::kUpToDate;
    return result;
  }
  size_t position = chain.commits.size();
  if (local) {
    for (size_t i = 0; i < chain.commits.size(); ++i) {
      if (chain.commits[i].id == local->id) position = i;
    }
    if (position == chain.commits.size()) {
      GENTLE_ASSIGN_OR_RETURN(bool local_is_newer, LocalDescendsFrom(repo, local->id, fetched.tip));
      if (local_is_newer) {
        result.outcome = ImportOutcome::kUpToDate;
        return result;
      }
      return Diverged(lineage, local->id, fetched.tip,
                      "the local history and the fetched one from " + fetched.remote +
                          " diverged; import is fast-forward only");
    }
  }
  GENTLE_ASSIGN_OR_RETURN(LocalEntry entry, ReadLocalEntry(scope->repo, scope->layout, lineage));
  const bool local_record = entry == LocalEntry::kRecord;
  // A local record is the tip's (the history was levelled above); a local tombstone or audit
  // record is an import of this same ending that stopped before its ref moved.
  const bool resumes =
      (entry == LocalEntry::kConsumed && chain.terminal.Is(store::HistoryVerb::kBurn)) ||
      (entry == LocalEntry::kRetired && chain.terminal.Is(store::HistoryVerb::kAbandon));
  if ((local_record && !local) || (entry != LocalEntry::kNone && !local_record && !resumes)) {
    return Diverged(lineage, local ? local->id : "", fetched.tip,
                    local_record ? "a local record without a history"
                                 : "the lineage already ended in this store");
  }
  if (local_record && !chain.terminal.empty() && !request.accept_terminal) {
    return Diverged(lineage, local ? local->id : "", fetched.tip,
                    "the history fetched from " + fetched.remote + " ends in a " +
                        chain.terminal.text() +
                        " of a lineage that is live here; import it with --accept-terminal to "
                        "take that ending")
        .WithDetail(DetailKey::kTerminal, chain.terminal.text());
  }
  const std::optional<std::string> from =
      local ? std::optional<std::string>(local->id) : std::nullopt;
  result.commits = position;
  result.outcome = ImportOutcome::kImported;
  GENTLE_RETURN_IF_ERROR(OpenIndex(scope.get()));
  // Provenance before the ref moves: until the ref reaches the tip it names, it is not read.
  GENTLE_RETURN_IF_ERROR(store::EnsureDirectory(
      scope->layout.common_dir(), store::ProvenanceDir(scope->layout), store::kStoreDirMode));
  GENTLE_RETURN_IF_ERROR(store::WriteFileAtomic(
      store::ProvenancePath(scope->layout, lineage),
      store::EncodeProvenance(lineage, fetched.remote, fetched.tip), store::kRecordFileMode));
  if (entry == LocalEntry::kRetired) {
    GENTLE_RETURN_IF_ERROR(MoveRef(*scope, lineage, from, chain.tip().id));
  } else if (chain.terminal.Is(store::HistoryVerb::kBurn)) {
    GENTLE_RETURN_IF_ERROR(ImportBurn(scope.get(), chain, from, local_record));
  } else if (chain.terminal.Is(store::HistoryVerb::kAbandon)) {
    GENTLE_RETURN_IF_ERROR(ImportAbandon(scope.get(), chain, from, local_record));
  } else {
    GENTLE_RETURN_IF_ERROR(ImportLive(scope.get(), chain, from));
  }
  store::FaultPoint("import:index-committed");
  return result;
}

}  // namespace gentle::transaction
