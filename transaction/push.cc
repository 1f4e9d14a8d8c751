#include "transaction/push.h"

#include <algorithm>
#include <map>

#include "store/git/repository.h"
#include "store/git/review_refs.h"
#include "store/history_chain.h"
#include "store/history_ref.h"
#include "store/history_sync.h"
#include "store/layout.h"
#include "store/lineage_id.h"
#include "store/store_guard.h"
#include "transaction/git_cli.h"

namespace gentle::transaction {
namespace {

// The tip of each history to push, read under the shared guard; the lineage ids sorted, unique.
Result<std::vector<PushedLineage>> ReadTips(const store::git::Repository& repo,
                                            std::vector<std::string> lineages) {
  const store::StoreLayout layout(repo.common_dir());
  GENTLE_ASSIGN_OR_RETURN(store::StoreGuard guard, store::StoreGuard::ForRead(layout));
  const bool named = !lineages.empty();
  if (!named) {
    GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> all, store::git::ListHistoryRefs(repo));
    for (std::string& id : all) {
      if (store::IsValidLineageId(id)) lineages.push_back(std::move(id));
    }
  }
  std::sort(lineages.begin(), lineages.end());
  lineages.erase(std::unique(lineages.begin(), lineages.end()), lineages.end());
  std::vector<PushedLineage> out;
  for (const std::string& lineage : lineages) {
    GENTLE_ASSIGN_OR_RETURN(store::HistoryCheck check, store::CheckHistory(repo, layout, lineage));
    if (!check.tip) {
      return Status(Code::kNotFound, "lineage " + lineage + " has no history ref to push")
          .WithLineage(lineage);
    }
    if (check.drift == store::HistoryDrift::kAhead) {
      return Status(Code::kReconciliationPrepared,
                    "the history of lineage " + lineage +
                        " is ahead of its record (an interrupted mutation); the next writer or "
                        "`review repair` resolves it before it can be pushed")
          .WithLineage(lineage)
          .WithDetail(DetailKey::kTip, check.tip->id);
    }
    out.push_back(PushedLineage{lineage, check.tip->id, ""});
  }
  return out;
}

// One line of `git push --porcelain`: "<flag>\t<from>:<to>\t<summary>".
struct PorcelainRef {
  char flag = 0;
  std::string to;
  std::string summary;
};

std::vector<PorcelainRef> ParsePorcelain(const std::string& out) {
  std::vector<PorcelainRef> refs;
  size_t begin = 0;
  while (begin < out.size()) {
    size_t end = out.find('\n', begin);
    if (end == std::string::npos) end = out.size();
    const std::string line = out.substr(begin, end - begin);
    begin = end + 1;
    const size_t tab1 = line.find('\t');
    if (tab1 != 1) continue;
    const size_t tab2 = line.find('\t', tab1 + 1);
    const std::string spec =
        line.substr(tab1 + 1, tab2 == std::string::npos ? std::string::npos : tab2 - tab1 - 1);
    const size_t colon = spec.rfind(':');
    if (colon == std::string::npos) continue;
    PorcelainRef ref;
    ref.flag = line[0];
    ref.to = spec.substr(colon + 1);
    if (tab2 != std::string::npos) ref.summary = line.substr(tab2 + 1);
    refs.push_back(std::move(ref));
  }
  return refs;
}

}  // namespace

Result<PushReport> PushReviews(const std::string& cwd, const std::string& remote,
                               const std::vector<std::string>& lineages) {
  GENTLE_RETURN_IF_ERROR(store::ValidateRemoteName(remote));
  for (const std::string& lineage : lineages) {
    GENTLE_RETURN_IF_ERROR(store::ValidateLineageId(lineage));
  }
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(cwd));
  PushReport report;
  report.remote = remote;
  GENTLE_ASSIGN_OR_RETURN(report.lineages, ReadTips(repo, lineages));
  const std::string dir = GitCliDir(repo);
  GENTLE_RETURN_IF_ERROR(RequireRemote(dir, remote));
  if (report.lineages.empty()) return report;

  std::vector<std::string> args = {"push", "--porcelain", remote};
  for (const PushedLineage& p : report.lineages) {
    args.push_back(p.tip + ":" + store::HistoryRefName(p.lineage));
  }
  GENTLE_ASSIGN_OR_RETURN(GitOutput output, RunGit(dir, args));
  std::map<std::string, PorcelainRef> by_ref;
  for (PorcelainRef& ref : ParsePorcelain(output.out)) by_ref[ref.to] = std::move(ref);
  std::vector<std::string> rejected;
  const PorcelainRef* first_rejected = nullptr;
  const PushedLineage* first_rejected_lineage = nullptr;
  for (PushedLineage& p : report.lineages) {
    auto found = by_ref.find(store::HistoryRefName(p.lineage));
    if (found == by_ref.end()) continue;
    const PorcelainRef& ref = found->second;
    if (ref.flag == '!') {
      rejected.push_back(p.lineage);
      if (!first_rejected) {
        first_rejected = &ref;
        first_rejected_lineage = &p;
      }
    } else if (ref.flag == '*') {
      p.result = "created";
    } else if (ref.flag == '=') {
      p.result = "up_to_date";
    } else {
      p.result = "updated";
    }
  }
  if (first_rejected) {
    std::string names;
    for (const std::string& r : rejected) names += (names.empty() ? "" : ", ") + r;
    return Status(Code::kConflict,
                  "the remote " + remote + " refused the history of " + names + " (" +
                      first_rejected->summary +
                      "): its history diverged from the local one; nothing is forced")
        .WithLineage(first_rejected_lineage->lineage)
        .WithDetail(DetailKey::kRemote, remote)
        .WithDetail(DetailKey::kTip, first_rejected_lineage->tip)
        .WithDetail(DetailKey::kReason, first_rejected->summary)
        .WithDetail(DetailKey::kRejected, names);
  }
  const bool all_reported = std::all_of(report.lineages.begin(), report.lineages.end(),
                                        [](const PushedLineage& p) { return !p.result.empty(); });
  if (output.exit_code != 0 || !all_reported) return GitFailed("push", remote, output);
  return report;
}

}  // namespace gentle::transaction
