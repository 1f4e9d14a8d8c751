#include "transaction/pr_lineage.h"

#include <algorithm>

#include "store/catalog.h"
#include "store/history_ref.h"
#include "store/history_verb.h"
#include "store/round_context.h"
#include "store/selector_kind.h"
#include "store/tombstone.h"
#include "transaction/recorded_selector.h"

namespace gentle::transaction {

Selector SelectorQuery(Selector selector) {
  selector.ledger_ids.clear();
  std::sort(selector.untracked.begin(), selector.untracked.end());
  return selector;
}

bool HoldsPr(const Selector& asked, const Selector& recorded, bool round_bound) {
  if (SelectorQuery(asked) != SelectorQuery(recorded)) return false;
  return round_bound || store::IsSelectorKind(asked.kind, store::SelectorKind::kCommitRange);
}

bool RoundBound(const store::git::Repository& repo, const store::RecordView& record) {
  auto tip = store::ReadHistoryTip(repo, record.lineage_id);
  if (!tip.ok() || !*tip) return false;
  auto bound = store::ReadRoundContext(repo, (*tip)->id, record.round);
  return bound.ok() && *bound && !(*bound)->context_digest.empty();
}

Result<std::optional<store::RecordView>> FindPrLineage(const store::git::Repository& repo,
                                                       const store::StoreLayout& layout,
                                                       const Selector& asked,
                                                       const std::string& here) {
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> ids, store::ListLiveLineages(layout));
  for (const std::string& id : ids) {
    auto record = store::LoadRecord(layout, id);
    if (!record.ok() || record->worktree_identity != here) continue;
    const Selector recorded = RecordedSelector(*record);
    if (SelectorQuery(asked) != SelectorQuery(recorded)) continue;
    if (HoldsPr(asked, recorded, RoundBound(repo, *record))) return std::optional(*record);
  }
  return std::optional<store::RecordView>();
}

bool BurnedPrLineage(const store::git::Repository& repo, const store::StoreLayout& layout,
                     const Selector& asked, const std::string& tombstone_key) {
  auto tombstone = store::LoadTombstone(layout, tombstone_key);
  if (!tombstone.ok()) return false;
  auto tip = store::ReadHistoryTip(repo, tombstone->lineage_id);
  if (!tip.ok() || !*tip || !(*tip)->verb.Is(store::HistoryVerb::kBurn)) {
    return false;
  }
  auto burned = store::ParseRecordFile((*tip)->record_file, tombstone->lineage_id);
  if (!burned.ok()) return false;
  auto bound = store::ReadRoundContext(repo, (*tip)->id, burned->round);
  const bool round_bound = bound.ok() && *bound && !(*bound)->context_digest.empty();
  return HoldsPr(asked, RecordedSelector(*burned), round_bound);
}

}  // namespace gentle::transaction
