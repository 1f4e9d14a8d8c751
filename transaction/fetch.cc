#include "transaction/fetch.h"

#include "store/git/repository.h"
#include "store/history_chain.h"
#include "store/layout.h"
#include "store/store_guard.h"
#include "transaction/git_cli.h"

namespace gentle::transaction {

Result<FetchReport> FetchReviews(const std::string& cwd, const std::string& remote) {
  GENTLE_RETURN_IF_ERROR(store::ValidateRemoteName(remote));
  std::string dir;
  {
    GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(cwd));
    GENTLE_RETURN_IF_ERROR(store::CheckBatchMarker(store::StoreLayout(repo.common_dir())));
    dir = GitCliDir(repo);
  }
  GENTLE_RETURN_IF_ERROR(RequireRemote(dir, remote));
  const std::string refspec =
      "+" + store::HistoryRefName("*") + ":" + store::FetchedHistoryRefName(remote, "*");
  GENTLE_ASSIGN_OR_RETURN(GitOutput output,
                          RunGit(dir, {"fetch", "--no-tags", "--no-write-fetch-head", "--prune",
                                       "--recurse-submodules=no", remote, refspec}));
  if (output.exit_code != 0) return GitFailed("fetch", remote, output);

  // Opened after git wrote the refs.
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(cwd));
  GENTLE_ASSIGN_OR_RETURN(std::vector<store::FetchedHistory> histories,
                          store::ListFetchedHistories(repo, std::nullopt));
  FetchReport report;
  report.remote = remote;
  for (const store::FetchedHistory& h : histories) {
    if (h.remote != remote) continue;
    FetchedLineageReport entry;
    entry.lineage = h.lineage;
    entry.tip = h.tip;
    auto chain = store::VerifyHistoryChain(repo, h.lineage, h.tip);
    if (chain.ok()) {
      entry.verified = true;
      entry.terminal = chain->terminal;
      entry.state = chain->terminal == "burn"      ? "consumed"
                    : chain->terminal == "abandon" ? "retired"
                                                   : chain->record.state;
    } else {
      entry.error = chain.status();
    }
    report.lineages.push_back(std::move(entry));
  }
  return report;
}

}  // namespace gentle::transaction
