#include "transaction/list.h"

#include <algorithm>
#include <map>
#include <set>

#include "store/catalog.h"
#include "store/fetched_lineage.h"
#include "store/file_io.h"
#include "store/git/repository.h"
#include "store/history_verb.h"
#include "store/index/index_reader.h"
#include "store/layout.h"
#include "store/provenance.h"
#include "store/record.h"
#include "store/store_guard.h"
#include "store/store_scan.h"
#include "store/time_order.h"
#include "store/tombstone.h"

namespace gentle::transaction {

namespace {

LineageSummary SummaryOf(const store::index::LineageRow& row) {
  LineageSummary s;
  s.lineage = row.lineage_id;
  s.state = row.state;
  s.kind = row.kind;
  s.created_at = row.created_at;
  s.path_count = static_cast<size_t>(row.path_count);
  s.revision = row.revision;
  return s;
}

// A lineage listed without a live record; `evidence`: the tombstone or audit record, if any.
LineageSummary Recordless(const std::string& lineage, ListState standing, std::string evidence) {
  LineageSummary s;
  s.lineage = lineage;
  s.standing = standing;
  s.evidence = std::move(evidence);
  return s;
}

// Lists from the files alone (no index yet: a fresh or Go-written store).
Result<std::vector<LineageSummary>> ListFromFiles(const store::StoreLayout& layout) {
  GENTLE_ASSIGN_OR_RETURN(store::StoreFiles files, store::ScanStoreFiles(layout));
  std::vector<LineageSummary> out;
  std::set<std::string> listed;
  std::sort(files.rows.lineages.begin(), files.rows.lineages.end(),
            [](const store::index::LineageRow& a, const store::index::LineageRow& b) {
              return std::pair(store::TimeOrderKey(a.created_at), a.lineage_id) <
                     std::pair(store::TimeOrderKey(b.created_at), b.lineage_id);
            });
  for (const auto& row : files.rows.lineages) {
    listed.insert(row.lineage_id);
    out.push_back(SummaryOf(row));
  }
  std::vector<LineageSummary> consumed;
  for (const auto& row : files.rows.tombstones) {
    if (listed.count(row.lineage_id) || !store::index::TombstoneEffective(layout, row)) continue;
    listed.insert(row.lineage_id);
    consumed.push_back(
        Recordless(row.lineage_id, ListState::kConsumed, store::TombstonePath(layout, row.key)));
  }
  std::map<std::string, const store::index::QuarantineRow*> newest;
  for (const auto& row : files.rows.quarantine) {
    if (listed.count(row.lineage_id) || !store::index::QuarantineEffective(layout, row)) continue;
    auto& slot = newest[row.lineage_id];
    if (slot == nullptr ||
        store::TimeOrderKey(row.reclaimed_at) > store::TimeOrderKey(slot->reclaimed_at)) {
      slot = &row;
    }
  }
  // An incomplete entry whose lineage was burned or retired is listed as that (the tombstone or
  // audit record outranks the directory, as in `status --lineage`).
  for (const std::string& id : files.incomplete) {
    if (!listed.count(id) && !newest.count(id))
      out.push_back(Recordless(id, ListState::kIncomplete, ""));
  }
  out.insert(out.end(), consumed.begin(), consumed.end());
  for (const auto& [id, row] : newest) {
    out.push_back(Recordless(id, ListState::kRetired, row->audit_path));
  }
  return out;
}

// The lineages that exist only as fetched histories (store/fetched_lineage.h), each verified whole,
// by lineage id. A history that does not verify, or that two remotes disagree on, fails the list.
Result<std::vector<LineageSummary>> FetchedOnly(const store::git::Repository& repo,
                                                const store::StoreLayout& layout) {
  GENTLE_ASSIGN_OR_RETURN(std::vector<store::FetchedHistory> histories,
                          store::ListFetchedHistories(repo, std::nullopt));
  std::vector<LineageSummary> out;
  std::string previous;
  for (const store::FetchedHistory& h : histories) {
    if (h.lineage == previous) continue;  // one entry per lineage, whichever remotes hold it
    previous = h.lineage;
    GENTLE_ASSIGN_OR_RETURN(bool known, store::KnownLocally(layout, h.lineage));
    if (known) continue;  // a local lineage always wins
    GENTLE_ASSIGN_OR_RETURN(std::optional<store::FetchedLineage> fetched,
                            store::ReadFetchedLineage(repo, h.lineage));
    if (!fetched) continue;
    LineageSummary s;
    if (fetched->chain.terminal.Is(store::HistoryVerb::kBurn)) {
      s = Recordless(h.lineage, ListState::kConsumed, "");
    } else if (fetched->chain.terminal.Is(store::HistoryVerb::kAbandon)) {
      s = Recordless(h.lineage, ListState::kRetired, "");
    } else {
      s = SummaryOf(
          store::LineageRowOf(fetched->chain.record, store::index::RowStatus::kCommitted));
      if (s.created_at.empty()) s.created_at = fetched->chain.tip().created_at;
    }
    s.source = fetched->remote;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

Status VisitLineages(const std::string& cwd,
                     const std::function<void(const LineageSummary&)>& visit) {
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(cwd));
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForRead(layout));
  // Verified before anything is listed, so a damaged fetched history fails the list cleanly.
  GENTLE_ASSIGN_OR_RETURN(std::vector<LineageSummary> fetched, FetchedOnly(repo, layout));
  // Import provenance (store/provenance.h), read before anything is listed for the same reason.
  GENTLE_ASSIGN_OR_RETURN(std::set<std::string> imported, store::ImportedLineages(layout));
  std::map<std::string, std::string> sources;
  for (const std::string& id : imported) {
    GENTLE_ASSIGN_OR_RETURN(std::string source, store::ImportedSource(repo, layout, id));
    if (!source.empty()) sources.emplace(id, std::move(source));
  }
  const std::function<void(const LineageSummary&)> visit_local = [&](const LineageSummary& s) {
    auto found = sources.find(s.lineage);
    if (found == sources.end()) return visit(s);
    LineageSummary with_source = s;
    with_source.source = found->second;
    visit(with_source);
  };
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<store::index::IndexDb> db,
                          store::index::OpenIndexForReader(layout));
  if (!db) {
    GENTLE_ASSIGN_OR_RETURN(std::vector<LineageSummary> all, ListFromFiles(layout));
    for (const LineageSummary& s : all) visit_local(s);
    for (const LineageSummary& s : fetched) visit(s);
    return Status::Ok();
  }
  // A second connection answers the keyed "already listed?" questions while the first streams,
  // so nothing proportional to the number of lineages is held in memory.
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<store::index::IndexDb> keyed,
                          store::index::OpenIndexForReader(layout));
  if (!keyed) return Status(Code::kBusy, "index.sqlite changed while listing; retry");
  auto live = [&](const std::string& lineage) -> Result<bool> {
    GENTLE_ASSIGN_OR_RETURN(auto row, keyed->FindLineage(lineage));
    if (!row) return false;
    if (row->status == store::index::RowStatus::kCommitted) return true;
    return store::KindOf(layout.record_path(lineage)) == store::PathKind::kFile;
  };
  Status failure;
  GENTLE_RETURN_IF_ERROR(db->ListLineages([&](const store::index::LineageRow& row) {
    if (row.status == store::index::RowStatus::kCommitted) {
      if (store::KindOf(layout.record_path(row.lineage_id)) != store::PathKind::kMissing) {
        visit_local(SummaryOf(row));
        return true;
      }
      // A committed row whose record is gone: the index is behind the files, which say what
      // became of the lineage (as `status --lineage` answers).
      Status absent = store::ClassifyRecordless(layout, row.lineage_id);
      if (absent.code() == Code::kConsumed) {
        visit_local(Recordless(row.lineage_id, ListState::kConsumed,
                               *absent.detail(DetailKey::kTombstone)));
      } else if (absent.code() == Code::kRetired) {
        visit_local(Recordless(row.lineage_id, ListState::kRetired,
                               *absent.detail(DetailKey::kAuditRecord)));
      } else if (absent.code() == Code::kCorrupted && absent.has_detail(DetailKey::kDirectory)) {
        visit_local(Recordless(row.lineage_id, ListState::kIncomplete, ""));
      } else if (absent.code() != Code::kNotFound) {
        failure = absent;
        return false;
      }
      return true;
    }
    // A prepared row: a mutation in flight or interrupted; the record says what is true.
    auto record = store::LoadRecord(layout, row.lineage_id);
    if (record.ok()) {
      store::index::LineageRow resolved =
          store::LineageRowOf(*record, store::index::RowStatus::kCommitted);
      if (resolved.created_at.empty()) resolved.created_at = row.created_at;  // from the history
      visit_local(SummaryOf(resolved));
    }
    return true;
  }));
  GENTLE_RETURN_IF_ERROR(failure);
  // Incomplete entries have no committed row (a Go-written one has no row at all): from v2/.
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> incomplete,
                          store::ListIncompleteEntries(layout));
  for (const std::string& id : incomplete) {
    GENTLE_ASSIGN_OR_RETURN(auto row, keyed->FindLineage(id));
    if (row && row->status == store::index::RowStatus::kCommitted) continue;  // listed above
    GENTLE_ASSIGN_OR_RETURN(auto tombstone, keyed->FindTombstoneByLineage(id));
    if (tombstone && store::index::TombstoneEffective(layout, *tombstone))
      continue;  // consumed below
    GENTLE_ASSIGN_OR_RETURN(auto audit, keyed->FindQuarantineByLineage(id));
    if (audit && store::index::QuarantineEffective(layout, *audit)) continue;  // retired below
    visit_local(Recordless(id, ListState::kIncomplete, ""));
  }
  std::string previous;
  GENTLE_RETURN_IF_ERROR(db->ListTombstones([&](const store::index::TombstoneRow& row) {
    if (row.lineage_id == previous || !store::index::TombstoneEffective(layout, row)) return true;
    auto is_live = live(row.lineage_id);
    if (!is_live.ok()) {
      failure = is_live.status();
      return false;
    }
    if (*is_live) return true;
    previous = row.lineage_id;
    visit_local(
        Recordless(row.lineage_id, ListState::kConsumed, store::TombstonePath(layout, row.key)));
    return true;
  }));
  GENTLE_RETURN_IF_ERROR(failure);
  previous.clear();
  GENTLE_RETURN_IF_ERROR(db->ListQuarantine([&](const store::index::QuarantineRow& row) {
    if (row.lineage_id == previous || !store::index::QuarantineEffective(layout, row)) return true;
    previous = row.lineage_id;
    auto is_live = live(row.lineage_id);
    auto tombstone = keyed->FindTombstoneByLineage(row.lineage_id);
    if (!is_live.ok() || !tombstone.ok()) {
      failure = !is_live.ok() ? is_live.status() : tombstone.status();
      return false;
    }
    if (*is_live || (*tombstone && store::index::TombstoneEffective(layout, **tombstone)))
      return true;
    visit_local(Recordless(row.lineage_id, ListState::kRetired, row.audit_path));
    return true;
  }));
  GENTLE_RETURN_IF_ERROR(failure);
  for (const LineageSummary& s : fetched) visit(s);
  return Status::Ok();
}

}  // namespace gentle::transaction
