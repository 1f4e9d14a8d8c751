#include "export/review_show.h"

#include <map>
#include <utility>

#include "export/approval_signature.h"
#include "export/context_export.h"
#include "export/round_generated.h"
#include "export/view_plan.h"
#include "store/fetched_lineage.h"
#include "store/git/commit_signature.h"
#include "store/git/repository.h"
#include "store/history_chain.h"
#include "store/history_ref.h"
#include "store/history_verb.h"
#include "store/layout.h"
#include "store/lineage_id.h"
#include "store/provenance.h"
#include "store/record.h"
#include "store/sha256.h"
#include "store/store_guard.h"
#include "store/verdict_file.h"

namespace gentle::exporter {
namespace {

// The message of the old single-commit pins (store/history_ref.h).
constexpr std::string_view kLegacyPinSubject = "gentle-ai review pin";

// The verified history a view reads: the local one (`source`: the remote it was imported from,
// until a local mutation), else a fetched one (`source`: its remote).
struct ShownHistory {
  std::optional<store::VerifiedChain> chain;  // nullopt: a record without any history
  std::string source;
  store::RecordView record;  // the chain's tip record, or the history-less record
};

Result<ShownHistory> ReadShownHistory(const store::git::Repository& repo,
                                      const store::StoreLayout& layout,
                                      const std::string& lineage) {
  ShownHistory out;
  GENTLE_ASSIGN_OR_RETURN(std::optional<store::HistoryCommit> tip,
                          store::ReadHistoryTip(repo, lineage));
  if (tip && !tip->legacy_pin) {
    auto chain = store::VerifyHistoryChain(repo, lineage, tip->id);
    if (!chain.ok()) return Status(chain.status()).WithLineage(lineage);
    // An imported lineage reads with its remote until a local mutation (store/provenance.h).
    GENTLE_ASSIGN_OR_RETURN(out.source, store::ImportedSource(repo, layout, lineage));
    out.record = chain->record;
    out.chain = std::move(chain).value();
    return out;
  }
  if (tip && tip->subject != kLegacyPinSubject) {
    return Status(Code::kCorrupted, "history ref of lineage " + lineage + " points at commit " +
                                        tip->id + ", which is neither a history commit nor a pin")
        .WithLineage(lineage)
        .WithDetail(DetailKey::kCommit, tip->id);
  }
  // No local history (or an old single-commit pin only). A lineage the local store does not know at
  // all may have a fetched one (terminal or not: it is shown either way); a local one is the
  // store's answer (a record without history, or its refusal).
  GENTLE_ASSIGN_OR_RETURN(bool known, store::KnownLocally(layout, lineage));
  if (!known) {
    GENTLE_ASSIGN_OR_RETURN(std::optional<store::FetchedLineage> fetched,
                            store::ReadFetchedLineage(repo, lineage));
    if (fetched) {
      out.source = fetched->remote;
      out.record = fetched->chain.record;
      out.chain = std::move(fetched->chain);
      return out;
    }
  }
  GENTLE_ASSIGN_OR_RETURN(LoadedRecord loaded, LoadForRead(repo, lineage));
  out.record = std::move(loaded.record);
  return out;
}

// The signature status of a verdict's history commit.
Status SetSignature(const store::git::Repository& repo,
                    const std::optional<AllowedSigners>& allowed_signers, ShowEvent* event) {
  GENTLE_ASSIGN_OR_RETURN(std::optional<store::git::CommitSignature> signature,
                          store::git::ReadCommitSignature(repo, event->commit));
  if (!signature) {
    event->signature = "unsigned";
    return Status::Ok();
  }
  if (!allowed_signers) {
    event->signature = "signed";
    return Status::Ok();
  }
  auto checked = CheckApprovalSignature(repo, event->commit, *allowed_signers);
  if (checked.ok()) {
    event->signature = "verified";
    event->signer = checked->principal;
    return Status::Ok();
  }
  if (checked.status().code() != Code::kUntrusted) return checked.status();
  event->signature = "untrusted";
  const std::string* reason = checked.status().detail(DetailKey::kReason);
  event->signer = reason == nullptr ? "" : *reason;
  return Status::Ok();
}

Result<ShowEvent> EventOf(const store::git::Repository& repo, const std::string& lineage,
                          const store::HistoryCommit& commit, const store::RecordView& record,
                          const std::optional<AllowedSigners>& allowed_signers) {
  ShowEvent event;
  event.commit = commit.id;
  event.verb = commit.verb;
  event.at = commit.at;
  event.revision = commit.revision;
  event.state = commit.state;
  event.round = record.round;
  if (!event.HasVerdict()) return event;
  // A co-approval's own verdict file is co-approval.md (docs/format.md, "Co-approvals").
  const std::string name = commit.verb.Is(store::HistoryVerb::kCoApprove)
                               ? std::string(store::kHistoryCoApprovalName)
                               : "verdicts/" + std::to_string(record.round) + ".md";
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> file,
                          store::ReadHistoryFile(repo, commit.id, name));
  if (!file) {
    return Status(Code::kCorrupted, "history commit " + commit.id + " of lineage " + lineage +
                                        " is a verdict without " + name)
        .WithLineage(lineage)
        .WithDetail(DetailKey::kCommit, commit.id);
  }
  auto fields = store::ParseVerdictFile(*file);
  if (!fields.ok())
    return Status(fields.status()).WithLineage(lineage).WithDetail(DetailKey::kCommit, commit.id);
  event.verdict = fields->verdict;
  event.actor = fields->actor;
  event.role = fields->role;
  event.body = fields->body;
  GENTLE_RETURN_IF_ERROR(SetSignature(repo, allowed_signers, &event));
  return event;
}

// The diff of `derived`, or its budget refusal; any other refusal fails the view.
Result<ShowDiff> DiffOf(Result<Derived> derived, const std::string& lineage, bool keep) {
  ShowDiff out;
  if (!derived.ok()) {
    if (derived.status().code() != Code::kBudgetExceeded) {
      return Status(derived.status()).WithLineage(lineage);
    }
    out.refusal = Status(derived.status()).WithLineage(lineage);
    return out;
  }
  out.derived = true;
  out.diff = std::move(derived).value();
  out.patch_sha256 = "sha256:" + store::Sha256Hex(out.diff.patch);
  out.byte_size = out.diff.patch.size();
  out.paths = out.diff.manifest.size();
  if (!keep) out.diff = Derived{};
  return out;
}

// The reviewer's view of a round whose history marks `generated` entries: export-context --view
// review's bytes when they fit one part of `max_bytes`; budget_exceeded otherwise.
Result<Derived> ReviewView(const store::git::Repository& repo, const store::Snapshot& snapshot,
                           const std::vector<std::string>& generated, size_t max_bytes) {
  GENTLE_ASSIGN_OR_RETURN(Derived derived,
                          DeriveContextPart(repo, snapshot, PathsCheck::kListAndDigest,
                                            {View::kReview, max_bytes, 1}, generated));
  if (derived.part && derived.part->parts > 1) {
    const std::string max = std::to_string(max_bytes);
    return Status(Code::kBudgetExceeded,
                  "the reviewer's view is " + std::to_string(derived.part->parts) +
                      " parts of at most " + max + " bytes; export it in parts")
        .WithDetail(DetailKey::kCount, std::to_string(derived.part->parts))
        .WithDetail(DetailKey::kMaxBytes, max);
  }
  return derived;
}

// The events and rounds of a verified chain (tip first), oldest first.
Status ReadChain(const store::git::Repository& repo, const std::string& lineage,
                 const store::VerifiedChain& chain,
                 const std::optional<AllowedSigners>& allowed_signers, ShowView* view) {
  std::map<int64_t, ShowRound> rounds;
  for (auto it = chain.commits.rbegin(); it != chain.commits.rend(); ++it) {
    if (it->legacy_pin) continue;  // an old single-commit pin at the root: no record
    // The verified chain keeps only the tip's record bytes; the others are read again, each
    // under the record limit.
    std::string bytes = it->record_file;
    if (bytes.empty()) {
      GENTLE_ASSIGN_OR_RETURN(bytes, store::ReadHistoryRecord(repo, *it));
    }
    auto record = store::ParseRecordFile(bytes, lineage);
    if (!record.ok()) return Status(record.status()).WithLineage(lineage);
    GENTLE_ASSIGN_OR_RETURN(ShowEvent event, EventOf(repo, lineage, *it, *record, allowed_signers));
    view->events.push_back(std::move(event));
    ShowRound& round = rounds[record->round];  // the newest record of the round wins
    round.round = record->round;
    round.revision = record->revision;
    round.snapshot = record->current_snapshot;
  }
  for (auto& [number, round] : rounds) view->rounds.push_back(std::move(round));
  return Status::Ok();
}

}  // namespace

Result<ShowView> ReadShowView(const ShowRequest& request) {
  GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(request.lineage));
  if (request.round && *request.round < 1) {
    return Status(Code::kUsage, "--round must be >= 1, got " + std::to_string(*request.round));
  }
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo,
                          store::git::Repository::Discover(request.cwd));
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForRead(layout));
  GENTLE_ASSIGN_OR_RETURN(ShownHistory history, ReadShownHistory(repo, layout, request.lineage));
  ShowView view;
  view.lineage = request.lineage;
  view.source = history.source;
  if (history.chain) {
    view.state = history.chain->tip().state;
    view.revision = history.chain->tip().revision;
    std::optional<AllowedSigners> signers;
    if (!request.allowed_signers.empty()) {
      GENTLE_ASSIGN_OR_RETURN(signers, LoadAllowedSigners(repo, request.allowed_signers));
    }
    GENTLE_RETURN_IF_ERROR(ReadChain(repo, request.lineage, *history.chain, signers, &view));
  } else {
    view.state = history.record.state;
    view.revision = history.record.revision;
    view.rounds.push_back(
        {history.record.round, history.record.revision, history.record.current_snapshot, {}});
  }
  view.selected_round = request.round.value_or(view.rounds.back().round);
  if (FindShowRound(view, view.selected_round) == nullptr) {
    return Status(Code::kNotFound, "lineage " + request.lineage + " has no round " +
                                       std::to_string(view.selected_round) + " in its history")
        .WithLineage(request.lineage)
        .WithDetail(DetailKey::kRound, std::to_string(view.selected_round));
  }
  std::optional<store::HistoryCommit> tip;
  if (history.chain) tip = history.chain->tip();
  for (ShowRound& round : view.rounds) {
    if (!request.derive_all && round.round != view.selected_round) continue;
    GENTLE_ASSIGN_OR_RETURN(const std::vector<std::string> generated,
                            ReadRoundGenerated(repo, tip, round.round));
    if (generated.empty()) {
      GENTLE_ASSIGN_OR_RETURN(round.diff,
                              DiffOf(DeriveContext(repo, round.snapshot, Engine::kNative,
                                                   PathsCheck::kListAndDigest, request.max_bytes),
                                     request.lineage, request.keep_patches));
      continue;
    }
    Result<Derived> derived = ReviewView(repo, round.snapshot, generated, request.max_bytes);
    std::vector<std::string> summarised;
    if (derived.ok() && derived->part) summarised = derived->part->summarised_paths;
    GENTLE_ASSIGN_OR_RETURN(round.diff,
                            DiffOf(std::move(derived), request.lineage, request.keep_patches));
    round.diff.summarised_paths = std::move(summarised);
  }
  if (request.interdiffs) {
    for (size_t i = 1; i < view.rounds.size(); ++i) {
      const ShowRound& from = view.rounds[i - 1];
      const ShowRound& to = view.rounds[i];
      ShowInterdiff interdiff{from.round, to.round, {}};
      GENTLE_ASSIGN_OR_RETURN(
          interdiff.diff,
          DiffOf(DeriveInterdiff(repo, from.snapshot.candidate_tree, to.snapshot.candidate_tree,
                                 Engine::kNative, request.max_bytes),
                 request.lineage, request.keep_patches));
      view.interdiffs.push_back(std::move(interdiff));
    }
  }
  return view;
}

const ShowRound* FindShowRound(const ShowView& view, int64_t round) {
  for (const ShowRound& each : view.rounds) {
    if (each.round == round) return &each;
  }
  return nullptr;
}

}  // namespace gentle::exporter
