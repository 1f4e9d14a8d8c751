#include "transaction/status.h"

#include <algorithm>
#include <map>
#include <set>

#include "export/round_generated.h"
#include "loop/seen_ledger.h"
#include "store/catalog.h"
#include "store/digests.h"
#include "store/fetched_lineage.h"
#include "store/file_io.h"
#include "store/git/memory_writes.h"
#include "store/git/repository.h"
#include "store/history_evidence.h"
#include "store/history_ref.h"
#include "store/history_verb.h"
#include "store/layout.h"
#include "store/lineage_id.h"
#include "store/provenance.h"
#include "store/record.h"
#include "store/review_state.h"
#include "store/round_budget.h"
#include "store/round_context.h"
#include "store/selector_kind.h"
#include "store/store_guard.h"
#include "store/time_order.h"
#include "store/tombstone.h"
#include "transaction/branch_trees.h"
#include "transaction/candidate_budget.h"
#include "transaction/capture.h"
#include "transaction/context_cap.h"
#include "transaction/generated_marks.h"
#include "transaction/pr_lineage.h"
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
    auto snapshot = CaptureSnapshot(repo_, selector, nullptr);
    Result<LiveTarget> target =
        snapshot.ok() ? Result<LiveTarget>(LiveTarget{snapshot->identity, snapshot->paths.empty()})
                      : Result<LiveTarget>(snapshot.status());
    cache_.emplace_back(selector, std::move(target));
    return cache_.back().second;
  }

  // Whether the verdict of `lineage` at `revision`, recorded at `since`, is posted
  // (loop::SeenLedgerReader::PostedSince; the ledger opened once). A ledger that cannot be read
  // answers its error.
  Result<bool> PostedSince(const std::string& lineage, const std::string& revision,
                           const std::string& since) {
    if (!ledger_) ledger_.emplace(loop::SeenLedgerReader::Open(repo_.common_dir()));
    if (!ledger_->ok()) return ledger_->status();
    return (*ledger_)->PostedSince(lineage, revision, since);
  }

  // Whether `tree` is a commit's tree on HEAD's first-parent history (walked once, bounded).
  bool OnBranch(const std::string& tree) {
    if (!branch_) branch_ = BranchTrees(repo_);
    return branch_->count(tree) != 0;
  }

 private:
  const store::git::Repository& repo_;
  std::vector<std::pair<Selector, Result<LiveTarget>>> cache_;
  std::optional<std::set<std::string>> branch_;
  std::optional<Result<loop::SeenLedgerReader>> ledger_;
};

}  // namespace

namespace {

constexpr char kForeignDetail[] = "the same candidate was captured in another worktree";
constexpr char kAmbiguousDetail[] = "more than one lineage claims the live target";

// The local history's tip; nothing when there is none or it cannot be read (status reports what
// it holds as information and never fails on it).
std::optional<store::HistoryCommit> HistoryTip(const store::git::Repository& repo,
                                               const store::RecordView& record) {
  auto tip = store::ReadHistoryTip(repo, record.lineage_id);
  if (!tip.ok() || !*tip) return std::nullopt;
  return **tip;
}

// The current round's binding from the local history (`tip`); nothing when it has none or cannot
// be read.
std::optional<store::RoundContext> CurrentRoundContext(
    const store::git::Repository& repo, const store::RecordView& record,
    const std::optional<store::HistoryCommit>& tip) {
  if (!tip) return std::nullopt;
  auto bound = store::ReadRoundContext(repo, tip->id, record.round);
  if (!bound.ok()) return std::nullopt;
  return *bound;
}

// Whether the current round's newest verdict still waits for its post (docs/loop.md, "Following
// next"): the round is bound to a forge context, the history's tip is that round's verdict (or
// co-approval) commit, and the seen ledger records no post of it (PostedSince: keyed by lineage
// for `review post`). A ledger that cannot be read makes nothing due (post would meet the same
// damage).
bool PostDue(const std::optional<store::HistoryCommit>& tip, const store::RecordView& record,
             const std::optional<store::RoundContext>& bound, LiveTargets& live) {
  if (!tip || !bound || bound->context_digest.empty() || tip->revision != record.revision) {
    return false;
  }
  if (!tip->verb.Is(store::HistoryVerb::kVerdict) &&
      !tip->verb.Is(store::HistoryVerb::kCoApprove)) {
    return false;
  }
  const Result<bool> posted = live.PostedSince(record.lineage_id, record.revision, tip->at);
  return posted.ok() && !*posted;
}

// `here`: this worktree's identity (Repository::WorktreeIdentity); `require_context`: git config
// gentle-ai.requireContext (RequireContextOrTrue).
LineageStatus Assess(const store::git::Repository& repo, LiveTargets& live, const std::string& here,
                     const std::string& lineage, const Result<store::RecordView>& record,
                     bool require_context) {
  LineageStatus s;
  s.lineage = lineage;
  s.require_context = require_context;
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
  s.foreign = !ClaimsHere(r, here);
  s.state = r.state;
  s.kind = r.initial_snapshot.kind;
  s.revision = r.revision;
  s.target_identity = r.current_snapshot.identity;
  const std::optional<store::HistoryCommit> tip = HistoryTip(repo, r);
  const std::optional<store::RoundContext> bound = CurrentRoundContext(repo, r, tip);
  s.post_due = PostDue(tip, r, bound, live);
  if (bound) {
    s.context_digest = bound->context_digest;
    s.context_unavailable = bound->unavailable_reason;
  }
  s.approve_capped = ApproveCapped(BindingOf(bound), require_context);
  const Result<LiveTarget>& live_target =
      repo.is_bare() && !store::IsSelectorKind(s.kind, store::SelectorKind::kCommitRange)
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
  if (s.applicability != Applicability::kCurrentTarget &&
      r.state.Is(store::ReviewState::kApproved) &&
      live.OnBranch(r.current_snapshot.candidate_tree)) {
    s.merged = true;
    s.detail = "the approved candidate is committed on the branch";
  }
  return s;
}

// Whether the patch between two trees passes the budget, read-only.
Fit FitOf(const Status& measured) {
  if (measured.ok()) return Fit::kFits;
  if (measured.code() == Code::kBudgetExceeded) return Fit::kOverBudget;
  return Fit::kObjectsMissing;
}

// What DecideNext needs of a record to probe the budget.
struct Probe {
  std::string lineage;
  int64_t round = 0;
  std::string base_tree, candidate_tree;  // the current snapshot's
  Selector selector;                      // the recorded selector (revise captures with it)
};

Probe ProbeOf(const store::RecordView& r) {
  return {r.lineage_id, r.round, r.current_snapshot.base_tree, r.current_snapshot.candidate_tree,
          RecordedSelector(r)};
}

// The current round's budget and generated paths, from the local history (transaction/
// reviewer_budget.h, export/round_generated.h).
struct RoundView {
  uint64_t budget = store::kDefaultRoundBudgetBytes;
  std::vector<std::string> generated;
};

Result<RoundView> CurrentRoundView(const store::git::Repository& repo, const Probe& probe) {
  RoundView view;
  GENTLE_ASSIGN_OR_RETURN(std::optional<store::HistoryCommit> tip,
                          store::ReadHistoryTip(repo, probe.lineage));
  if (!tip) return view;
  GENTLE_ASSIGN_OR_RETURN(view.budget, store::ReadRoundBudget(repo, tip->id, probe.round));
  GENTLE_ASSIGN_OR_RETURN(view.generated, exporter::ReadRoundGenerated(repo, tip, probe.round));
  return view;
}

// The reviewing round's review view under its budget: the parts its export takes, or why it
// cannot be exported (transaction/candidate_budget.h). Read-only.
void ProbeFrozen(const store::git::Repository& repo, const Probe& probe, LineageStatus& s) {
  Result<RoundView> round = CurrentRoundView(repo, probe);
  if (!round.ok()) {
    s.frozen = Fit::kObjectsMissing;
    return;
  }
  Result<uint64_t> parts = ReviewViewParts(repo.raw(), probe.base_tree, probe.candidate_tree,
                                           round->generated, round->budget);
  s.frozen = FitOf(parts.status());
  if (parts.ok()) s.parts = {*parts, round->budget};
}

// The candidate `selector` names, as start or revise would capture it, measured against
// `budget` as they measure it: captured on a handle of its own whose object writes stay in
// memory, so nothing is written and `repo`'s caches never see an object that is not on disk. A
// capture that fails here fits (the verb reports its own error; the hash-only capture already
// succeeded).
Fit LiveFit(const store::git::Repository& repo, const Selector& selector, uint64_t budget) {
  auto own =
      store::git::Repository::Discover(repo.is_bare() ? repo.git_dir() : repo.worktree_root());
  if (!own.ok()) return Fit::kFits;
  auto writes = store::git::MemoryWrites::Divert(own->raw());
  if (!writes.ok()) return Fit::kFits;
  auto snapshot = CaptureSnapshot(*own, selector, writes->get());
  if (!snapshot.ok() || snapshot->paths.empty()) return Fit::kFits;
  auto marked = MarkGenerated(own->raw(), *snapshot);
  if (!marked.ok()) return Fit::kFits;
  const Fit fit = FitOf(RefuseUnsplittableCandidate(*own, *snapshot, *marked, budget));
  return fit == Fit::kOverBudget ? fit : Fit::kFits;
}

// The budget revise keeps for the lineage's next round: its current round's.
uint64_t ReviseBudget(const store::git::Repository& repo, const Probe& probe) {
  Result<RoundView> round = CurrentRoundView(repo, probe);
  return round.ok() ? round->budget : store::kDefaultRoundBudgetBytes;
}

// Sets the entry's next action, and its detail when that action waits on the author. The budget
// is probed only where the action depends on it: a reviewing lineage's frozen diff (skipped with
// `frozen_known`: its context has just been exported), a sent-back lineage's moved candidate.
void DecideNext(const store::git::Repository& repo, LineageStatus& s, const Probe* probe,
                std::optional<StatusRole> role, bool frozen_known = false) {
  Next next = EntryNext(s.Facts());
  if (probe != nullptr && next.action == NextAction::kExport && !frozen_known) {
    ProbeFrozen(repo, *probe, s);
    next = EntryNext(s.Facts());
  }
  if (probe != nullptr && next.action == NextAction::kRevise) {
    s.live = LiveFit(repo, probe->selector, ReviseBudget(repo, *probe));
    next = EntryNext(s.Facts());
  }
  s.next = RoleNext(s.Facts(), role);
  if (s.next.action != NextAction::kExport) s.parts = {};
  const std::string_view waiting = WaitingDetail(s.Facts());
  if (!waiting.empty()) s.detail = std::string(waiting);
}

// A lone lineage's status: Assess, then `ambiguous` if another lineage claims the same live target,
// then its next action (`source`: the remote of a fetched-only lineage, or empty; `provenance`:
// the remote a local record was imported from, or empty).
Result<LineageStatus> AssessAlone(const store::git::Repository& repo,
                                  const store::StoreLayout& layout, const std::string& lineage,
                                  const Result<store::RecordView>& record,
                                  const std::string& source, std::optional<StatusRole> role,
                                  const std::string& provenance = "", bool frozen_known = false) {
  LiveTargets live(repo);
  const std::string here = repo.WorktreeIdentity();
  LineageStatus s = Assess(repo, live, here, lineage, record, RequireContextOrTrue(repo));
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
  const std::optional<Probe> probe =
      record.ok() ? std::optional<Probe>(ProbeOf(*record)) : std::nullopt;
  DecideNext(repo, s, probe ? &*probe : nullptr, role, frozen_known);
  return s;
}

// Whether `review start` could start the live candidate `selector` names here. Read-only: the
// candidate is hashed in memory, the tombstone is one keyed file probe, and a startable candidate
// is measured against the budget (LiveFit).
LiveStart ProbeLiveStart(const store::git::Repository& repo, const store::StoreLayout& layout,
                         LiveTargets& live, const Selector& selector, uint64_t budget) {
  if (repo.is_bare()) return LiveStart::kUnavailable;
  const Result<LiveTarget>& target = live.For(selector);
  if (!target.ok()) return LiveStart::kUnavailable;
  if (target->clean) return LiveStart::kClean;
  const std::string key =
      store::TombstoneKey(store::RepoKey(repo.worktree_root()), target->identity);
  if (store::KindOf(store::TombstonePath(layout, key)) != store::PathKind::kMissing) {
    // The PR's own lineage was burned (the PR merged): its next stays none until its head moves.
    return BurnedPrLineage(repo, layout, selector, key) ? LiveStart::kPrBurned : LiveStart::kBurned;
  }
  if (LiveFit(repo, selector, budget) == Fit::kOverBudget) return LiveStart::kOverBudget;
  return LiveStart::kStartable;
}

Result<LineageStatus> InspectOne(const store::git::Repository& repo,
                                 const store::StoreLayout& layout, const std::string& lineage,
                                 StatusRole role) {
  auto record = store::LoadRecord(layout, lineage);
  if (!record.ok() && record.status().code() == Code::kNotFound) {
    Status absent = store::AnswerRecordless(repo, layout, lineage);
    if (absent.code() != Code::kNotFound) return absent;
    // Not known here: a history fetched from a remote may know it (a local lineage always wins).
    GENTLE_ASSIGN_OR_RETURN(std::optional<store::FetchedLineage> fetched,
                            store::ReadFetchedLineage(repo, lineage));
    if (!fetched) return absent;
    GENTLE_RETURN_IF_ERROR(store::TerminalAnswer(*fetched, lineage));
    return AssessAlone(repo, layout, lineage, Result<store::RecordView>(fetched->chain.record),
                       fetched->remote, role);
  }
  if (!record.ok()) return Status(Code::kCorrupted, record.status().message()).WithLineage(lineage);
  GENTLE_ASSIGN_OR_RETURN(std::string provenance, store::ImportedSource(repo, layout, lineage));
  return AssessAlone(repo, layout, lineage, record, "", role, provenance);
}

}  // namespace

Result<StatusReport> InspectStatus(const std::string& cwd,
                                   const std::optional<std::string>& lineage,
                                   const std::optional<Selector>& selector, StatusRole role,
                                   std::optional<uint64_t> start_budget) {
  if (lineage) GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(*lineage));
  if (lineage && selector) {
    return Status(Code::kUsage, "--lineage and the selector flags are exclusive");
  }
  if (selector) GENTLE_RETURN_IF_ERROR(ValidateSelector(*selector));
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(cwd));
  const store::StoreLayout layout(repo.common_dir());
  StatusReport report;
  auto guard = store::StoreGuard::ForRead(layout);
  if (!guard.ok() && guard.status().code() == Code::kReconciliationPrepared) {
    // Every verb refuses while another tool's batch reconciliation holds the store; status
    // answers, and its next says what waits (docs/lifecycle.md, "Next action").
    report.next = {NextAction::kNone, NextReason::kReconciliationPrepared};
    return report;
  }
  if (!guard.ok()) return guard.status();
  if (lineage) {
    GENTLE_ASSIGN_OR_RETURN(LineageStatus s, InspectOne(repo, layout, *lineage, role));
    report.next = s.next;
    if (s.next.action != NextAction::kNone && s.next.action != NextAction::kStart) {
      report.next_lineage = s.lineage;
    }
    if (s.next.action == NextAction::kExport) report.parts = s.parts;
    report.lineages.push_back(std::move(s));
    return report;
  }
  LiveTargets live(repo);
  // The queried candidate: refused as start refuses it when it cannot be captured.
  std::optional<std::string> queried;
  if (selector) {
    if (!store::IsSelectorKind(selector->kind, store::SelectorKind::kCommitRange))
      GENTLE_RETURN_IF_ERROR(repo.RequireWorktree("review status"));
    const Result<LiveTarget>& target = live.For(*selector);
    if (!target.ok()) return target.status();
    queried = target->identity;
  }
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> ids, store::ListLiveLineages(layout));

  const std::string here = repo.WorktreeIdentity();
  const bool require_context = RequireContextOrTrue(repo);
  // How many live lineages claim each live identity here, so a contested target is `ambiguous`.
  std::map<std::string, int> claims;
  std::vector<LineageStatus>& out = report.lineages;
  GENTLE_ASSIGN_OR_RETURN(std::set<std::string> imported, store::ImportedLineages(layout));
  // The records whose next depends on the budget (reviewing, or sent back), kept for DecideNext.
  std::map<std::string, Probe> probed;
  for (const std::string& id : ids) {
    auto record = store::LoadRecord(layout, id);
    LineageStatus s = Assess(repo, live, here, id, record, require_context);
    // A reviewer asks about every lineage of the clone; an author about this worktree's.
    const bool asked_here = !s.foreign || role == StatusRole::kReviewer;
    const bool same_selector = selector && record.ok() &&
                               SelectorQuery(RecordedSelector(*record)) == SelectorQuery(*selector);
    if (selector &&
        !(record.ok() && asked_here && (s.target_identity == *queried || same_selector))) {
      continue;
    }
    // One live lineage per PR: this worktree's lineage of the asked PR is its answer.
    s.pr_lineage = same_selector && !s.foreign &&
                   HoldsPr(*selector, RecordedSelector(*record), !s.context_digest.empty());
    if (imported.count(id)) {
      GENTLE_ASSIGN_OR_RETURN(s.source, store::ImportedSource(repo, layout, id));
    }
    if (s.applicability == Applicability::kCurrentTarget) ++claims[s.target_identity];
    if (record.ok() && (record->state.Is(store::ReviewState::kReviewing) ||
                        record->state.Is(store::ReviewState::kCorrectionRequired))) {
      probed.emplace(id, ProbeOf(*record));
    }
    out.push_back(std::move(s));
  }
  std::vector<EntryFacts> facts;
  facts.reserve(out.size());
  for (LineageStatus& s : out) {
    if (s.applicability == Applicability::kCurrentTarget && claims[s.target_identity] > 1) {
      s.applicability = Applicability::kAmbiguous;
      s.detail = kAmbiguousDetail;
    }
    auto it = probed.find(s.lineage);
    DecideNext(repo, s, it == probed.end() ? nullptr : &it->second, role);
    facts.push_back(s.Facts());
  }
  const Selector asked = selector ? *selector : Selector{};
  const Picked picked = PickNext(
      facts,
      [&] {
        return ProbeLiveStart(repo, layout, live, asked,
                              start_budget.value_or(store::kDefaultRoundBudgetBytes));
      },
      require_context, role);
  report.next = picked.next;
  if (picked.entry && picked.next.action != NextAction::kNone) {
    report.next_lineage = out[*picked.entry].lineage;
    if (picked.next.action == NextAction::kExport) report.parts = out[*picked.entry].parts;
  }
  return report;
}

Result<LineageStatus> AssessRecord(const store::git::Repository& repo,
                                   const store::RecordView& record, const std::string& source) {
  const store::StoreLayout layout(repo.common_dir());
  return AssessAlone(repo, layout, record.lineage_id, Result<store::RecordView>(record), source,
                     /*role=*/std::nullopt, /*provenance=*/"", /*frozen_known=*/true);
}

}  // namespace gentle::transaction
