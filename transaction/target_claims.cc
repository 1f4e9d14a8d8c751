#include "transaction/target_claims.h"

#include "store/catalog.h"
#include "store/index/index_reader.h"

namespace gentle::transaction {

bool ClaimsHere(const store::RecordView& record, const std::string& here) {
  return record.worktree_identity.empty() || record.worktree_identity == here;
}

Result<std::optional<store::RecordView>> FindClaimant(const store::StoreLayout& layout,
                                                      const std::string& identity,
                                                      const std::string& here,
                                                      const std::string& exclude) {
  std::optional<store::RecordView> found;
  auto consider = [&](const std::string& id) {
    if (id == exclude) return;
    auto other = store::LoadRecord(layout, id);
    if (other.ok() && other->current_snapshot.identity == identity && ClaimsHere(*other, here)) {
      found = std::move(other).value();
    }
  };
  GENTLE_ASSIGN_OR_RETURN(std::unique_ptr<store::index::IndexDb> db,
                          store::index::OpenIndexForReader(layout));
  if (db) {
    GENTLE_RETURN_IF_ERROR(db->ListLineages([&](const store::index::LineageRow& row) {
      if (row.target_identity == identity) consider(row.lineage_id);
      return !found;
    }));
    return found;
  }
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> ids, store::ListLiveLineages(layout));
  for (const std::string& id : ids) {
    consider(id);
    if (found) break;
  }
  return found;
}

}  // namespace gentle::transaction
