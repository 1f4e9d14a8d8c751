#include "transaction/status.h"

#include <map>

#include "store/catalog.h"
#include "store/fetched_lineage.h"
#include "store/file_io.h"
#include "store/git/repository.h"
#include "store/index/index_sync.h"
#include "store/layout.h"
#include "store/lineage_id.h"
#include "store/record.h"
#include "store/store_guard.h"
#include "transaction/capture.h"
#include "transaction/recorded_selector.h"
#include "transaction/target_claims.h"

namespace gentle::transaction {

std::string_view ApplicabilityName(Applicability applicability) {
  switch (applicability) {
    case Applicability::kCurrentTarget:
      return "current_target";
    case Applicability::kAmbiguous:
      return "ambiguous";
    case Applicability::kUnrelated:
      return "unrelated";
    case Applicability::kCorrupted:
      return "corrupted";
    case Applicability::kIncomplete:
      return "incomplete";
  }
  return "unrelated";  // unreachable: the switch names every enumerator
}

namespace {

struct Loaded {
  std::string lineage;
  Result<store::RecordView> record;
};

class LiveTargets {
 public:
  explicit LiveTargets(const store::git::Repository& repo) : repo_(repo) {}

  // The live identity for a selector, or the reason it cannot be computed.
  const Result<std::string>& For(const Selector& selector) {
    for (auto& [key, value] : cache_) {
      if (key == selector) return value;
    }
    auto snapshot = CaptureSnapshot(repo_, selector, store::git::ObjectWrites::kHashOnly);
    Result<std::string> identity = snapshot.ok() ? Result<std::string>(snapshot->identity)
                                                 : Result<std::string>(snapshot.status());
    cache_.emplace_back(selector, std::move(identity));
    return cache_.back().second;
  }

 private:
  const store::git::Repository& repo_;
  std::vector<std::pair<Selector, Result<std::string>>> cache_;
};

}  // namespace

namespace {

constexpr char kForeignDetail[] = "the same candidate was captured in another worktree";
constexpr char kAmbiguousDetail[] = "more than one lineage claims the live target";

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
  const Result<std::string>& live_identity =
      repo.is_bare() && s.kind != "commit-range"
          ? Result<std::string>(Status(Code::kUsage, "a bare repository has no workspace"))
          : live.For(RecordedSelector(r));
  if (live_identity.ok()) {
    s.live_target_identity = *live_identity;
    if (*live_identity != s.target_identity) {
      s.applicability = Applicability::kUnrelated;
      s.detail = "the live target differs from the lineage's snapshot";
    } else if (!ClaimsHere(r, here)) {
      s.applicability = Applicability::kUnrelated;
      s.detail = kForeignDetail;
    } else {
      s.applicability = Applicability::kCurrentTarget;
    }
  } else {
    s.applicability = Applicability::kUnrelated;
    s.detail = "the live target cannot be computed here: " + live_identity.status().message();
  }
  return s;
}

// A lone lineage's status: Assess, then `ambiguous` if another lineage claims the same live target.
Result<LineageStatus> AssessAlone(const store::git::Repository& repo,
                                  const store::StoreLayout& layout, const std::string& lineage,
                                  const Result<store::RecordView>& record) {
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
  return s;
}

Result<std::vector<LineageStatus>> InspectOne(const store::git::Repository& repo,
                                              const store::StoreLayout& layout,
                                              const std::string& lineage) {
  auto record = store::LoadRecord(layout, lineage);
  if (!record.ok() && record.status().code() == Code::kNotFound) {
    Status absent = store::ClassifyRecordless(layout, lineage);
    if (absent.code() != Code::kNotFound) return absent;
    // Not known here: a history fetched from a remote may know it (a local lineage always wins).
    GENTLE_ASSIGN_OR_RETURN(std::optional<store::FetchedLineage> fetched,
                            store::ReadFetchedLineage(repo, lineage));
    if (!fetched) return absent;
    GENTLE_RETURN_IF_ERROR(store::TerminalAnswer(*fetched, lineage));
    GENTLE_ASSIGN_OR_RETURN(
        LineageStatus s,
        AssessAlone(repo, layout, lineage, Result<store::RecordView>(fetched->chain.record)));
    s.source = fetched->remote;
    return std::vector<LineageStatus>{s};
  }
  if (!record.ok()) return Status(Code::kCorrupted, record.status().message()).WithLineage(lineage);
  GENTLE_ASSIGN_OR_RETURN(LineageStatus s, AssessAlone(repo, layout, lineage, record));
  return std::vector<LineageStatus>{s};
}

}  // namespace

Result<std::vector<LineageStatus>> InspectStatus(const std::string& cwd,
                                                 const std::optional<std::string>& lineage) {
  if (lineage) GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(*lineage));
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(cwd));
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForRead(layout));
  if (lineage) return InspectOne(repo, layout, *lineage);
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> ids, store::ListLiveLineages(layout));

  LiveTargets live(repo);
  const std::string here = repo.WorktreeIdentity();
  // How many live lineages claim each live identity here, so a contested target is `ambiguous`.
  std::map<std::string, int> claims;
  std::vector<LineageStatus> out;
  for (const std::string& id : ids) {
    auto record = store::LoadRecord(layout, id);
    LineageStatus s = Assess(repo, live, here, id, record);
    if (s.applicability == Applicability::kCurrentTarget) ++claims[s.target_identity];
    out.push_back(std::move(s));
  }
  for (LineageStatus& s : out) {
    if (s.applicability == Applicability::kCurrentTarget && claims[s.target_identity] > 1) {
      s.applicability = Applicability::kAmbiguous;
      s.detail = kAmbiguousDetail;
    }
  }
  return out;
}

Result<std::string> ApplicabilityOf(const store::git::Repository& repo,
                                    const store::RecordView& record) {
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(LineageStatus s, AssessAlone(repo, layout, record.lineage_id,
                                                       Result<store::RecordView>(record)));
  return std::string(ApplicabilityName(s.applicability));
}

}  // namespace gentle::transaction
