// TEMPORARY copy of the lead's API (api_chain.md) so this branch compiles until it lands on main.
// Deleted when main is merged.
#ifndef GENTLE_STORE_HISTORY_CHAIN_H_
#define GENTLE_STORE_HISTORY_CHAIN_H_

#include <optional>
#include <string>
#include <vector>

#include "store/git/repository.h"
#include "store/history_ref.h"
#include "store/record.h"
#include "store/status.h"

namespace gentle::store {

// refs/gentle-ai/remotes/<remote>/reviews/<lineage>
std::string FetchedHistoryRefName(const std::string& remote, const std::string& lineage);
// `usage` unless `remote` is a safe single ref component (git check-ref-format rules, no '/').
Status ValidateRemoteName(const std::string& remote);
struct FetchedHistory {
  std::string remote, lineage, tip;
};
// Every refs/gentle-ai/remotes/*/reviews/* ref (only `lineage`'s when given), sorted by lineage
// then remote.
Result<std::vector<FetchedHistory>> ListFetchedHistories(const git::Repository& repo,
                                                         const std::optional<std::string>& lineage);
struct VerifiedChain {
  std::vector<HistoryCommit> commits;  // tip first, root last
  RecordView record;
  std::string terminal;  // "", "burn" or "abandon"
  const HistoryCommit& tip() const { return commits.front(); }
};
Result<VerifiedChain> VerifyHistoryChain(const git::Repository& repo, const std::string& lineage,
                                         const std::string& tip);

}  // namespace gentle::store

#endif  // GENTLE_STORE_HISTORY_CHAIN_H_
