#include "transaction/inspect.h"

#include <map>
#include <nlohmann/json.hpp>

#include "store/catalog.h"
#include "store/layout.h"
#include "store/lineage_id.h"
#include "store/record.h"
#include "store/repository.h"
#include "store/store_guard.h"
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

Result<std::vector<LineageStatus>> InspectStatus(const std::string& cwd,
                                                 const std::optional<std::string>& lineage) {
  if (lineage) GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(*lineage));
  GENTLE_ASSIGN_OR_RETURN(store::Repository repo, store::Repository::Discover(cwd));
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForRead(layout));
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> ids, store::ListLiveLineages(layout));

  std::vector<Loaded> loaded;
  for (const std::string& id : ids) loaded.push_back({id, store::LoadRecord(layout, id)});
  if (lineage) {
    bool present = false;
    for (const Loaded& l : loaded) present |= l.lineage == *lineage;
    if (!present) return store::ClassifyAbsent(layout, *lineage);
  }

  LiveTargets live(repo);
  // How many live lineages claim each live identity, so a contested target is `ambiguous`.
  std::map<std::string, int> claims;
  std::vector<LineageStatus> out;
  for (const Loaded& l : loaded) {
    LineageStatus s;
    s.lineage = l.lineage;
    if (!l.record.ok()) {
      s.applicability = "corrupted";
      s.detail = l.record.status().message();
      out.push_back(std::move(s));
      continue;
    }
    const store::RecordView& r = *l.record;
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
      if (*live_identity == s.target_identity) {
        s.applicability = "current_target";
        ++claims[s.target_identity];
      } else {
        s.applicability = "unrelated";
        s.detail = "the live target differs from the lineage's snapshot";
      }
    } else {
      s.applicability = "unrelated";
      s.detail = "the live target cannot be computed here: " + live_identity.status().message();
    }
    out.push_back(std::move(s));
  }
  for (LineageStatus& s : out) {
    if (s.applicability == "current_target" && claims[s.target_identity] > 1) {
      s.applicability = "ambiguous";
      s.detail = "more than one lineage claims the live target";
    }
  }
  if (!lineage) return out;
  for (LineageStatus& s : out) {
    if (s.lineage != *lineage) continue;
    if (s.applicability == "corrupted") {
      return Status(Code::kCorrupted, s.detail).WithLineage(s.lineage);
    }
    return std::vector<LineageStatus>{s};
  }
  return Status(Code::kInternal, "lineage vanished during status");
}

std::string ApplicabilityOf(const store::Repository& repo, const store::RecordView& record) {
  if (repo.is_bare() && record.initial_snapshot.kind != "commit-range") return "unrelated";
  auto live = CaptureSnapshot(repo, SelectorOf(record), store::ObjectWrites::kHashOnly);
  return live.ok() && live->identity == record.current_snapshot.identity ? "current_target"
                                                                         : "unrelated";
}

Result<std::vector<LineageSummary>> ListLineages(const std::string& cwd) {
  GENTLE_ASSIGN_OR_RETURN(store::Repository repo, store::Repository::Discover(cwd));
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForRead(layout));
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> ids, store::ListLiveLineages(layout));
  std::vector<LineageSummary> out;
  for (const std::string& id : ids) {
    auto record = store::LoadRecord(layout, id);
    LineageSummary s;
    s.lineage = id;
    if (record.ok()) {
      s.state = record->state;
      s.kind = record->initial_snapshot.kind;
      s.created_at = record->created_at;
      s.path_count = record->initial_snapshot.paths.size();
    } else if (record.status().code() == Code::kNotFound) {
      s.state = "incomplete";
    } else {
      s.state = "corrupted";
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace gentle::transaction
