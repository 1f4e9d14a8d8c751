#include "transaction/inspect.h"

#include <algorithm>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "store/catalog.h"
#include "store/file_io.h"
#include "store/index_sync.h"
#include "store/layout.h"
#include "store/lineage_id.h"
#include "store/record.h"
#include "store/repository.h"
#include "store/store_guard.h"
#include "store/store_scan.h"
#include "store/time_order.h"
#include "store/tombstone.h"
#include "transaction/capture.h"

namespace gentle::transaction {
namespace {

// The selector START recorded; for records without one, the best reconstruction from the snapshot.
Selector SelectorOf(const store::RecordView& record) {
  Selector selector;
  selector.kind = record.initial_snapshot.kind;
  selector.staged = record.initial_snapshot.projection == "staged";
  selector.untracked = record.initial_snapshot.intended_untracked;
  try {
    auto state = nlohmann::json::parse(record.compact_state);
    const auto& s = state.at("initial_atomic_start").at("selector");
    if (s.contains("base") && s["base"].is_string()) selector.base = s["base"];
    if (s.contains("head") && s["head"].is_string()) selector.head = s["head"];
  } catch (const std::exception&) {
    // No recorded selector: base-diff and commit-range cannot be recomputed; stays unrelated.
  }
  return selector;
}

struct Loaded {
  std::string lineage;
  Result<store::RecordView> record;
};

class LiveTargets {
 public:
  explicit LiveTargets(const store::Repository& repo) : repo_(repo) {}

  // The live identity for a selector, or the reason it cannot be computed.
  const Result<std::string>& For(const Selector& selector) {
    for (auto& [key, value] : cache_) {
      if (key == selector) return value;
    }
    auto snapshot = CaptureSnapshot(repo_, selector, store::ObjectWrites::kHashOnly);
    Result<std::string> identity = snapshot.ok() ? Result<std::string>(snapshot->identity)
                                                 : Result<std::string>(snapshot.status());
    cache_.emplace_back(selector, std::move(identity));
    return cache_.back().second;
  }

 private:
  const store::Repository& repo_;
  std::vector<std::pair<Selector, Result<std::string>>> cache_;
};

}  // namespace

namespace {

constexpr char kForeignDetail[] = "the same candidate was captured in another worktree";
constexpr char kAmbiguousDetail[] = "more than one lineage claims the live target";

// Whether `record` may claim this worktree's live target: it was started here, or its record does
// not say where (a legacy or foreign record cannot be proven to belong elsewhere).
bool ClaimsHere(const store::RecordView& record, const std::string& here) {
  return record.worktree_identity.empty() || record.worktree_identity == here;
}

// `here`: this worktree's identity (Repository::WorktreeIdentity).
LineageStatus Assess(const store::Repository& repo, LiveTargets& live, const std::string& here,
                     const std::string& lineage, const Result<store::RecordView>& record) {
  LineageStatus s;
  s.lineage = lineage;
  if (!record.ok() && record.status().code() == Code::kNotFound) {
    // A lineage directory without a record: an interrupted start (undone by the next mutation)
    // or residue another tool left (retired by `review reclaim`).
    s.applicability = "incomplete";
    s.detail =
        "a directory without a record: the next mutation undoes an interrupted start; review "
        "reclaim retires any other";
    return s;
  }
  if (!record.ok()) {
    s.applicability = "corrupted";
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
          : live.For(SelectorOf(r));
  if (live_identity.ok()) {
    s.live_target_identity = *live_identity;
    if (*live_identity != s.target_identity) {
      s.applicability = "unrelated";
      s.detail = "the live target differs from the lineage's snapshot";
    } else if (!ClaimsHere(r, here)) {
      s.applicability = "unrelated";
      s.detail = kForeignDetail;
    } else {
      s.applicability = "current_target";
    }
  } else {
    s.applicability = "unrelated";
    s.detail = "the live target cannot be computed here: " + live_identity.status().message();
  }
  return s;
}

// Whether another live lineage that may claim this worktree's live target (ClaimsHere) has
// `identity` as its current target. With an index, from the catalog: a record is loaded only when
// its row's target identity collides. Without one, from the records.
Result<bool> OtherClaim(const store::StoreLayout& layout, const std::string& lineage,
                        const std::string& identity, const std::string& here) {
  auto claims = [&](const std::string& other_id) {
    auto other = store::LoadRecord(layout, other_id);
    return other.ok() && other->current_snapshot.identity == identity && ClaimsHere(*other, here);
  };
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<store::IndexDb> db, store::OpenIndexForReader(layout));
  bool found = false;
  if (db) {
    GENTLE_RETURN_IF_ERROR(db->ListLineages([&](const store::LineageRow& row) {
      if (row.lineage_id != lineage && row.target_identity == identity && claims(row.lineage_id)) {
        found = true;
      }
      return !found;
    }));
    return found;
  }
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> ids, store::ListLiveLineages(layout));
  for (const std::string& id : ids) {
    if (id != lineage && claims(id)) return true;
  }
  return false;
}

// A lone lineage's status: Assess, then `ambiguous` if another lineage claims the same live target.
Result<LineageStatus> AssessAlone(const store::Repository& repo, const store::StoreLayout& layout,
                                  const std::string& lineage,
                                  const Result<store::RecordView>& record) {
  LiveTargets live(repo);
  const std::string here = repo.WorktreeIdentity();
  LineageStatus s = Assess(repo, live, here, lineage, record);
  if (s.applicability == "current_target") {
    GENTLE_ASSIGN_OR_RETURN(bool contested, OtherClaim(layout, lineage, s.target_identity, here));
    if (contested) {
      s.applicability = "ambiguous";
      s.detail = kAmbiguousDetail;
    }
  }
  return s;
}

Result<std::vector<LineageStatus>> InspectOne(const store::Repository& repo,
                                              const store::StoreLayout& layout,
                                              const std::string& lineage) {
  auto record = store::LoadRecord(layout, lineage);
  if (!record.ok() && record.status().code() == Code::kNotFound) {
    return store::ClassifyRecordless(layout, lineage);
  }
  if (!record.ok()) return Status(Code::kCorrupted, record.status().message()).WithLineage(lineage);
  GENTLE_ASSIGN_OR_RETURN(LineageStatus s, AssessAlone(repo, layout, lineage, record));
  return std::vector<LineageStatus>{s};
}

}  // namespace

Result<std::vector<LineageStatus>> InspectStatus(const std::string& cwd,
                                                 const std::optional<std::string>& lineage) {
  if (lineage) GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(*lineage));
  GENTLE_ASSIGN_OR_RETURN(store::Repository repo, store::Repository::Discover(cwd));
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
    if (s.applicability == "current_target") ++claims[s.target_identity];
    out.push_back(std::move(s));
  }
  for (LineageStatus& s : out) {
    if (s.applicability == "current_target" && claims[s.target_identity] > 1) {
      s.applicability = "ambiguous";
      s.detail = kAmbiguousDetail;
    }
  }
  return out;
}

Result<std::string> ApplicabilityOf(const store::Repository& repo,
                                    const store::RecordView& record) {
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(LineageStatus s, AssessAlone(repo, layout, record.lineage_id,
                                                       Result<store::RecordView>(record)));
  return s.applicability;
}

namespace {

LineageSummary SummaryOf(const store::LineageRow& row) {
  LineageSummary s;
  s.lineage = row.lineage_id;
  s.state = row.state;
  s.kind = row.kind;
  s.created_at = row.created_at;
  s.path_count = static_cast<size_t>(row.path_count);
  s.revision = row.revision;
  return s;
}

LineageSummary Incomplete(const std::string& lineage) {
  return {lineage, "incomplete", "", "", 0, "", ""};
}

// Lists from the files alone (no index yet: a fresh or Go-written store).
Result<std::vector<LineageSummary>> ListFromFiles(const store::StoreLayout& layout) {
  GENTLE_ASSIGN_OR_RETURN(store::StoreFiles files, store::ScanStoreFiles(layout));
  std::vector<LineageSummary> out;
  std::set<std::string> listed;
  std::sort(files.rows.lineages.begin(), files.rows.lineages.end(),
            [](const store::LineageRow& a, const store::LineageRow& b) {
              return std::pair(store::TimeOrderKey(a.created_at), a.lineage_id) <
                     std::pair(store::TimeOrderKey(b.created_at), b.lineage_id);
            });
  for (const auto& row : files.rows.lineages) {
    listed.insert(row.lineage_id);
    out.push_back(SummaryOf(row));
  }
  std::vector<LineageSummary> consumed;
  for (const auto& row : files.rows.tombstones) {
    if (listed.count(row.lineage_id) || !store::TombstoneEffective(layout, row)) continue;
    listed.insert(row.lineage_id);
    consumed.push_back(
        {row.lineage_id, "consumed", "", "", 0, "", store::TombstonePath(layout, row.key)});
  }
  std::map<std::string, const store::QuarantineRow*> newest;
  for (const auto& row : files.rows.quarantine) {
    if (listed.count(row.lineage_id) || !store::QuarantineEffective(layout, row)) continue;
    auto& slot = newest[row.lineage_id];
    if (slot == nullptr ||
        store::TimeOrderKey(row.reclaimed_at) > store::TimeOrderKey(slot->reclaimed_at)) {
      slot = &row;
    }
  }
  // An incomplete entry whose lineage was burned or retired is listed as that (the tombstone or
  // audit record outranks the directory, as in `status --lineage`).
  for (const std::string& id : files.incomplete) {
    if (!listed.count(id) && !newest.count(id)) out.push_back(Incomplete(id));
  }
  out.insert(out.end(), consumed.begin(), consumed.end());
  for (const auto& [id, row] : newest) {
    out.push_back({id, "retired", "", "", 0, "", row->audit_path});
  }
  return out;
}

}  // namespace

Status VisitLineages(const std::string& cwd,
                     const std::function<void(const LineageSummary&)>& visit) {
  GENTLE_ASSIGN_OR_RETURN(store::Repository repo, store::Repository::Discover(cwd));
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForRead(layout));
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<store::IndexDb> db, store::OpenIndexForReader(layout));
  if (!db) {
    GENTLE_ASSIGN_OR_RETURN(std::vector<LineageSummary> all, ListFromFiles(layout));
    for (const LineageSummary& s : all) visit(s);
    return Status::Ok();
  }
  // A second connection answers the keyed "already listed?" questions while the first streams,
  // so nothing proportional to the number of lineages is held in memory.
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<store::IndexDb> keyed, store::OpenIndexForReader(layout));
  if (!keyed) return Status(Code::kBusy, "index.sqlite changed while listing; retry");
  auto live = [&](const std::string& lineage) -> Result<bool> {
    GENTLE_ASSIGN_OR_RETURN(auto row, keyed->FindLineage(lineage));
    if (!row) return false;
    if (row->status == store::RowStatus::kCommitted) return true;
    return store::KindOf(layout.record_path(lineage)) == store::PathKind::kFile;
  };
  Status failure;
  GENTLE_RETURN_IF_ERROR(db->ListLineages([&](const store::LineageRow& row) {
    if (row.status == store::RowStatus::kCommitted) {
      visit(SummaryOf(row));
      return true;
    }
    // A prepared row: a mutation in flight or interrupted; the record says what is true.
    auto record = store::LoadRecord(layout, row.lineage_id);
    if (record.ok()) {
      store::LineageRow resolved = store::LineageRowOf(*record, store::RowStatus::kCommitted);
      if (resolved.created_at.empty()) resolved.created_at = row.created_at;  // from the history
      visit(SummaryOf(resolved));
    }
    return true;
  }));
  // Incomplete entries have no committed row (a Go-written one has no row at all): from v2/.
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> incomplete,
                          store::ListIncompleteEntries(layout));
  for (const std::string& id : incomplete) {
    GENTLE_ASSIGN_OR_RETURN(auto row, keyed->FindLineage(id));
    if (row && row->status == store::RowStatus::kCommitted) continue;  // listed above
    GENTLE_ASSIGN_OR_RETURN(auto tombstone, keyed->FindTombstoneByLineage(id));
    if (tombstone && store::TombstoneEffective(layout, *tombstone)) continue;  // consumed below
    GENTLE_ASSIGN_OR_RETURN(auto audit, keyed->FindQuarantineByLineage(id));
    if (audit && store::QuarantineEffective(layout, *audit)) continue;  // retired below
    visit(Incomplete(id));
  }
  std::string previous;
  GENTLE_RETURN_IF_ERROR(db->ListTombstones([&](const store::TombstoneRow& row) {
    if (row.lineage_id == previous || !store::TombstoneEffective(layout, row)) return true;
    auto is_live = live(row.lineage_id);
    if (!is_live.ok()) {
      failure = is_live.status();
      return false;
    }
    if (*is_live) return true;
    previous = row.lineage_id;
    visit({row.lineage_id, "consumed", "", "", 0, "", store::TombstonePath(layout, row.key)});
    return true;
  }));
  GENTLE_RETURN_IF_ERROR(failure);
  previous.clear();
  GENTLE_RETURN_IF_ERROR(db->ListQuarantine([&](const store::QuarantineRow& row) {
    if (row.lineage_id == previous || !store::QuarantineEffective(layout, row)) return true;
    previous = row.lineage_id;
    auto is_live = live(row.lineage_id);
    auto tombstone = keyed->FindTombstoneByLineage(row.lineage_id);
    if (!is_live.ok() || !tombstone.ok()) {
      failure = !is_live.ok() ? is_live.status() : tombstone.status();
      return false;
    }
    if (*is_live || (*tombstone && store::TombstoneEffective(layout, **tombstone))) return true;
    visit({row.lineage_id, "retired", "", "", 0, "", row.audit_path});
    return true;
  }));
  return failure;
}

}  // namespace gentle::transaction
