#include "transaction/fetch.h"

#include <string>
#include <string_view>

#include "store/git/repository.h"
#include "store/history_chain.h"
#include "store/history_verb.h"
#include "store/layout.h"
#include "store/store_guard.h"
#include "transaction/git_cli.h"

namespace gentle::transaction {
namespace {

// The lock file git names in `err` when it could not update a local ref because another process
// holds that ref's lock (`Unable to create '<path>.lock': File exists`, in whatever language git
// speaks: the quoted path is never translated), or "" when it names none.
std::string LockedLocalRef(const std::string& err) {
  for (size_t open = err.find('\''); open != std::string::npos; open = err.find('\'', open + 1)) {
    const size_t close = err.find('\'', open + 1);
    if (close == std::string::npos) break;
    const std::string quoted = err.substr(open + 1, close - open - 1);
    const std::string_view lock = ".lock";
    if (quoted.size() > lock.size() &&
        quoted.compare(quoted.size() - lock.size(), lock.size(), lock) == 0) {
      return quoted;
    }
    open = close;
  }
  return "";
}

}  // namespace

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
  if (output.exit_code != 0) {
    // Another fetch (or any git command) updating the same refs holds a lock git would not break:
    // contention, safe to retry, not a remote that cannot be read.
    if (const std::string lock = LockedLocalRef(output.err); !lock.empty()) {
      return Status(Code::kBusy, "git fetch with remote " + remote +
                                     " could not update a local ref: " + lock +
                                     " is held by another process (retry)")
          .WithDetail("remote", remote)
          .WithDetail("lock", lock)
          .WithDetail("git_exit", std::to_string(output.exit_code));
    }
    return GitFailed("fetch", remote, output);
  }

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
      entry.state = store::IsTerminalVerb(chain->terminal)
                        ? std::string(store::TerminalStateOf(chain->terminal))
                        : chain->record.state;
    } else {
      entry.error = chain.status();
    }
    report.lineages.push_back(std::move(entry));
  }
  return report;
}

}  // namespace gentle::transaction
