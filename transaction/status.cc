#include "transaction/status.h"

#include <map>
#include <set>

#include "store/catalog.h"
#include "store/digests.h"
#include "store/fetched_lineage.h"
#include "store/file_io.h"
#include "store/git/repository.h"
#include "store/history_ref.h"
#include "store/index/index_sync.h"
#include "store/layout.h"
#include "store/lineage_id.h"
#include "store/provenance.h"
#include "store/record.h"
#include "store/round_context.h"
#include "store/store_guard.h"
#include "transaction/capture.h"
#include "transaction/recorded_selector.h"
#include "transaction/target_claims.h"

namespace gentle::transaction {

namespace {

struct Loaded {
  std::string lineage;
  Result<store::RecordView> record;
};

// What status keeps of a live candidate.
struct LiveTarget {
  std::string identity;
  bool clean = false;  // no changed paths: nothing `start` could capture
};

class LiveTargets {
 public:
  explicit LiveTargets(const store::git::Repository& repo) : repo_(repo) {}

  // The live target for a selector, or the reason it cannot be computed.
  const Result<LiveTarget>& For(const Selector& selector) {
    for (auto& [key, value] : cache_) {
      if (key == selector) return value;
    }
    auto snapshot = CaptureSnapshot(repo_, selector, store::git::ObjectWrites::kHashOnly);
    Result<LiveTarget> target =
        snapshot.ok() ? Result<LiveTarget>(LiveTarget{snapshot->identity, snapshot->paths.empty()})
                      : Result<LiveTarget>(snapshot.status());
    cache_.emplace_back(selector, std::move(target));
    return cache_.back().second;
  }

 private:
  const store::git::Repository& repo_;
  std::vector<std::pair<Selector, Result<LiveTarget>>> cache_;
};

}  // namespace

namespace {

constexpr char kForeignDetail[] = "the same candidate was captured in another worktree";
constexpr char kAmbiguousDetail[] = "more than one lineage claims the live target";

// The current round's binding from the local history; nothing when it has none or cannot be read
// (status reports it as information and never fails on it).
std::optional<store::RoundContext> CurrentRoundContext(const store::git::Repository& repo,
                                                       const store::RecordView& record) {
  auto tip = store::ReadHistoryTip(repo, record.lineage_id);
  if (!tip.ok() || !*tip) return std::nullopt;
  auto bound = store::ReadRoundContext(repo, (*tip)->id, record.generation);
  if (!bound.ok()) return std::nullopt;
  return *bound;
}

// `here`: this worktree's identity (Repository::WorktreeIdentity).
LineageStatus Assess(const store::git::Repository& repo, LiveTargets& live, const std::string& here,
                     const std::string& lineage, const Result<store::RecordView>& record) {
  LineageStatus s;
  s.lineage = lineage;
  if (!record.ok() && record.status().code() == Code::kNotFound) {
    // A lineage directory without a record: an interrupted start (undone by the next mutation)
    // or residue another tool left (retired by `review reclaim`).
    s.applicability = Applicability::kIncomplete;
    s.detail =
        "a directory without a record: the next mutation undoes an interrupted start; review "
        "reclaim retires any other";
    return s;
  }
  if (!record.ok()) {
    s.applicability = Applicability::kCorrupted;
    s.detail = record.status().message();
    return s;
  }
  const store::RecordView& r = *record;
  s.state = r.state;
  s.kind = r.initial_snapshot.kind;
  s.revision = r.revision;
  s.target_identity = r.current_snapshot.identity;
  if (std::optional<store::RoundContext> bound = CurrentRoundContext(repo, r)) {
    s.context_digest = bound->context_digest;
    s.context_unavailable = bound->unavailable_reason;
  }
  const Result<LiveTarget>& live_target =
      repo.is_bare() && s.kind != "commit-range"
          ? Result<LiveTarget>(Status(Code::kUsage, "a bare repository has no workspace"))
          : live.For(RecordedSelector(r));
  if (live_target.ok()) {
    s.live_target_identity = live_target->identity;
    if (live_target->identity != s.target_identity) {
      s.applicability = Applicability::kUnrelated;
      s.unrelated = UnrelatedReason::kTargetMoved;
      s.detail = "the live target differs from the lineage's snapshot";
    } else if (!ClaimsHere(r, here)) {
      s.applicability = Applicability::kUnrelated;
      s.unrelated = UnrelatedReason::kOtherWorktree;
      s.detail = kForeignDetail;
    } else {
      s.applicability = Applicability::kCurrentTarget;
    }
  } else {
    s.applicability = Applicability::kUnrelated;
    s.unrelated = UnrelatedReason::kNotComputable;
    s.detail = "the live target cannot be computed here: " + live_target.status().message();
  }
  return s;
}

// Sets the entry's next action, and its detail when that action waits on the author.
void DecideNext(LineageStatus& s) {
  const EntryFacts facts = s.Facts();
  s.next = EntryNext(facts);
  const std::string_view waiting = WaitingDetail(facts);
  if (!waiting.empty()) s.detail = std::string(waiting);
}

// A lone lineage's status: Assess, then `ambiguous` if another lineage claims the same live target,
// then its next action (`source`: the remote of a fetched-only lineage, or empty; `provenance`:
// the remote a local record was imported from, or empty).
Result<LineageStatus> AssessAlone(const store::git::Repository& repo,
                                  const store::StoreLayout& layout, const std::string& lineage,
                                  const Result<store::RecordView>& record,
                                  const std::string& source, const std::string& provenance = "") {
  LiveTargets live(repo);
  const std::string here = repo.WorktreeIdentity();
  LineageStatus s = Assess(repo, live, here, lineage, record);
  if (s.applicability == Applicability::kCurrentTarget) {
    GENTLE_ASSIGN_OR_RETURN(std::optional<store::RecordView> other,
                            FindClaimant(layout, s.target_identity, here, lineage));
    if (other) {
      s.applicability = Applicability::kAmbiguous;
      s.detail = kAmbiguousDetail;
    }
  }
  s.source = source.empty() ? provenance : source;
  s.fetched_only = !source.empty();
  DecideNext(s);
  return s;
}

// Whether `review start` could start the live target of the default selector here. Read-only: the
// candidate is hashed in memory and the tombstone is one keyed file probe.
LiveStart ProbeLiveStart(const store::git::Repository& repo, const store::StoreLayout& layout,
                         LiveTargets& live) {
  if (repo.is_bare()) return LiveStart::kUnavailable;
  const Result<LiveTarget>& target = live.For(Selector{});
  if (!target.ok()) return LiveStart::kUnavailable;
  if (target->clean) return LiveStart::kClean;
  const std::string tombstone =
      layout.tombstone_dir() + "/" +
      store::TombstoneFileName(store::RepoKey(repo.worktree_root()), target->identity);
  if (store::KindOf(tombstone) != store::PathKind::kMissing) return LiveStart::kBurned;
  return LiveStart::kStartable;
}

Result<LineageStatus> InspectOne(const store::git::Repository& repo,
                                 const store::StoreLayout& layout, const std::string& lineage) {
  auto record = store::LoadRecord(layout, lineage);
  if (!record.ok() && record.status().code() == Code::kNotFound) {
    Status absent = store::ClassifyRecordless(layout, lineage);
    if (absent.code() != Code::kNotFound) return absent;
    // Not known here: a history fetched from a remote may know it (a local lineage always wins).
    GENTLE_ASSIGN_OR_RETURN(std::optional<store::FetchedLineage> fetched,
                            store::ReadFetchedLineage(repo, lineage));
    if (!fetched) return absent;
    GENTLE_RETURN_IF_ERROR(store::TerminalAnswer(*fetched, lineage));
    return AssessAlone(repo, layout, lineage, Result<store::RecordView>(fetched->chain.record),
                       fetched->remote);
  }
  if (!record.ok()) return Status(Code::kCorrupted, record.status().message()).WithLineage(lineage);
  GENTLE_ASSIGN_OR_RETURN(std::string provenance, store::ImportedSource(repo, layout, lineage));
  return AssessAlone(repo, layout, lineage, record, "", provenance);
}

}  // namespace

Result<StatusReport> InspectStatus(const std::string& cwd,
                                   const std::optional<std::string>& lineage) {
  if (lineage) GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(*lineage));
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(cwd));
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForRead(layout));
  StatusReport report;
  if (lineage) {
    GENTLE_ASSIGN_OR_RETURN(LineageStatus s, InspectOne(repo, layout, *lineage));
    report.next = s.next;
    report.lineages.push_back(std::move(s));
    return report;
  }
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> ids, store::ListLiveLineages(layout));

  LiveTargets live(repo);
  const std::string here = repo.WorktreeIdentity();
  // How many live lineages claim each live identity here, so a contested target is `ambiguous`.
  std::map<std::string, int> claims;
  std::vector<LineageStatus>& out = report.lineages;
  GENTLE_ASSIGN_OR_RETURN(std::set<std::string> imported, store::ImportedLineages(layout));
  for (const std::string& id : ids) {
    auto record = store::LoadRecord(layout, id);
    LineageStatus s = Assess(repo, live, here, id, record);
    if (imported.count(id)) {
      GENTLE_ASSIGN_OR_RETURN(s.source, store::ImportedSource(repo, layout, id));
    }
    if (s.applicability == Applicability::kCurrentTarget) ++claims[s.target_identity];
    out.push_back(std::move(s));
  }
  std::vector<EntryFacts> facts;
  facts.reserve(out.size());
  for (LineageStatus& s : out) {
    if (s.applicability == Applicability::kCurrentTarget && claims[s.target_identity] > 1) {
      s.applicability = Applicability::kAmbiguous;
      s.detail = kAmbiguousDetail;
    }
    DecideNext(s);
    facts.push_back(s.Facts());
  }
  report.next = EnvelopeNext(facts, [&] { return ProbeLiveStart(repo, layout, live); });
  return report;
}

Result<LineageStatus> AssessRecord(const store::git::Repository& repo,
                                   const store::RecordView& record, const std::string& source) {
  const store::StoreLayout layout(repo.common_dir());
  return AssessAlone(repo, layout, record.lineage_id, Result<store::RecordView>(record), source);
}

}  // namespace gentle::transaction
