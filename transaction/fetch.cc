#include "transaction/fetch.h"

#include <string>
#include <string_view>
#include <vector>

#include "store/file_io.h"
#include "store/git/repository.h"
#include "store/history_chain.h"
#include "store/history_verb.h"
#include "store/layout.h"
#include "store/store_guard.h"
#include "transaction/git_cli.h"

namespace gentle::transaction {
namespace {

// What git names in `err` when it could not update a local ref because another process was
// updating it too, in whatever language git speaks (quoted names are never translated), or "":
//   - a lock file it could not create (`Unable to create '<path>.lock': File exists`): another
//     process holds the ref's (or packed-refs') lock;
//   - a ref of this fetch's own destination namespace (`cannot lock ref '<ref>': is at <id> but
//     expected <id>`, or `... reference already exists`): a concurrent fetch moved or created it
//     between git's read of the ref and its update. Not when a directory (or anything but a
//     file) is in the ref's place: that conflict stays until someone removes it.
std::string ContendedLocalRef(const std::string& err, const std::string& common_dir,
                              const std::string& namespace_prefix) {
  std::vector<std::string> quoted;
  for (size_t open = err.find('\''); open != std::string::npos; open = err.find('\'', open + 1)) {
    const size_t close = err.find('\'', open + 1);
    if (close == std::string::npos) break;
    quoted.push_back(err.substr(open + 1, close - open - 1));
    open = close;
  }
  // A lock file first: git names the ref too when it could not create the ref's lock.
  const std::string_view lock = ".lock";
  for (const std::string& name : quoted) {
    if (name.size() > lock.size() &&
        name.compare(name.size() - lock.size(), lock.size(), lock) == 0) {
      return name;
    }
  }
  for (const std::string& name : quoted) {
    if (name.size() <= namespace_prefix.size() ||
        name.compare(0, namespace_prefix.size(), namespace_prefix) != 0 ||
        name.find("..") != std::string::npos) {
      continue;
    }
    const store::PathKind kind = store::KindOf(common_dir + "/" + name);
    if (kind == store::PathKind::kMissing || kind == store::PathKind::kFile) return name;
  }
  return "";
}

}  // namespace

Result<FetchReport> FetchReviews(const std::string& cwd, const std::string& remote) {
  GENTLE_RETURN_IF_ERROR(store::ValidateRemoteName(remote));
  std::string dir;
  std::string common_dir;
  {
    GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(cwd));
    GENTLE_RETURN_IF_ERROR(store::CheckBatchMarker(store::StoreLayout(repo.common_dir())));
    dir = GitCliDir(repo);
    common_dir = repo.common_dir();
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
    const std::string prefix = store::FetchedHistoryRefName(remote, "");
    if (const std::string held = ContendedLocalRef(output.err, common_dir, prefix); !held.empty()) {
      const bool lock = held.size() > 5 && held.compare(held.size() - 5, 5, ".lock") == 0;
      return Status(Code::kBusy, "git fetch with remote " + remote +
                                     " could not update a local ref: " + held +
                                     (lock ? " is held by another process (retry)"
                                           : " was updated by another process meanwhile (retry)"))
          .WithDetail(DetailKey::kRemote, remote)
          .WithDetail(lock ? DetailKey::kLock : DetailKey::kRef, held)
          .WithDetail(DetailKey::kGitExit, std::to_string(output.exit_code));
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
      const std::optional<store::TerminalState> terminal = store::TerminalStateOf(chain->terminal);
      entry.state = terminal ? store::StateName(*terminal) : chain->record.state;
    } else {
      entry.error = chain.status();
    }
    report.lineages.push_back(std::move(entry));
  }
  return report;
}

}  // namespace gentle::transaction
