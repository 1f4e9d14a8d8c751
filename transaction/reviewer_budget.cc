#include "transaction/reviewer_budget.h"

#include "store/round_budget.h"

namespace gentle::transaction {

Result<uint64_t> CurrentRoundBudget(const store::git::Repository& repo,
                                    const store::RecordView& record) {
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> tip,
                          store::LocalHistoryTip(repo, record.lineage_id));
  if (!tip) return store::kDefaultRoundBudgetBytes;
  return store::ReadRoundBudget(repo, *tip, record.round);
}

Status CheckSameBudget(const store::git::Repository& repo, const store::RecordView& record,
                       uint64_t wanted) {
  GENTLE_ASSIGN_OR_RETURN(uint64_t held, CurrentRoundBudget(repo, record));
  if (held == wanted) return Status::Ok();
  return Status(Code::kConflict, "lineage " + record.lineage_id +
                                     " already holds this candidate in round " +
                                     std::to_string(record.round) + " with a budget of " +
                                     std::to_string(held) + " bytes")
      .WithLineage(record.lineage_id)
      .WithDetail(DetailKey::kMaxBytes, std::to_string(held));
}

void AddRoundBudget(uint64_t budget, store::HistoryCommitSpec* commit) {
  const std::string file = store::EncodeRoundBudget(budget);
  if (!file.empty()) commit->files.emplace_back(std::string(store::kHistoryBudgetName), file);
}

}  // namespace gentle::transaction
