// TEMPORARY minimal stand-in for the lead's implementation (deleted when main is merged).
#include "store/history_chain.h"

#include <git2.h>

#include <algorithm>

#include "store/lineage_id.h"

namespace gentle::store {

std::string FetchedHistoryRefName(const std::string& remote, const std::string& lineage) {
  return "refs/gentle-ai/remotes/" + remote + "/reviews/" + lineage;
}

Status ValidateRemoteName(const std::string& remote) {
  auto bad = [&] { return Status(Code::kUsage, "invalid remote name '" + remote + "'"); };
  if (remote.empty() || remote[0] == '-' || remote[0] == '.' ||
      remote.find('/') != std::string::npos || remote.find("..") != std::string::npos ||
      remote.find("@{") != std::string::npos || remote == "@" || remote.size() > 200)
    return bad();
  if (remote.size() >= 5 && remote.compare(remote.size() - 5, 5, ".lock") == 0) return bad();
  if (remote.back() == '.') return bad();
  for (unsigned char c : remote) {
    if (c < 0x21 || c == 0x7f || c == '~' || c == '^' || c == ':' || c == '?' || c == '*' ||
        c == '[' || c == '\\')
      return bad();
  }
  return Status::Ok();
}

Result<std::vector<FetchedHistory>> ListFetchedHistories(
    const git::Repository& repo, const std::optional<std::string>& lineage) {
  std::vector<FetchedHistory> out;
  git_reference_iterator* it = nullptr;
  if (git_reference_iterator_glob_new(&it, repo.raw(), "refs/gentle-ai/remotes/*") != 0)
    return Status(Code::kInternal, "cannot list refs");
  git_reference* ref = nullptr;
  while (git_reference_next(&ref, it) == 0) {
    std::string name = git_reference_name(ref);
    const std::string prefix = "refs/gentle-ai/remotes/";
    std::string rest = name.substr(prefix.size());
    size_t slash = rest.find("/reviews/");
    if (slash != std::string::npos && git_reference_type(ref) == GIT_REFERENCE_DIRECT) {
      FetchedHistory h;
      h.remote = rest.substr(0, slash);
      h.lineage = rest.substr(slash + 9);
      h.tip = git::OidHex(*git_reference_target(ref));
      if (IsValidLineageId(h.lineage) && ValidateRemoteName(h.remote).ok() &&
          (!lineage || *lineage == h.lineage))
        out.push_back(h);
    }
    git_reference_free(ref);
  }
  git_reference_iterator_free(it);
  std::sort(out.begin(), out.end(), [](const FetchedHistory& a, const FetchedHistory& b) {
    return std::pair(a.lineage, a.remote) < std::pair(b.lineage, b.remote);
  });
  return out;
}

Result<VerifiedChain> VerifyHistoryChain(const git::Repository& repo, const std::string& lineage,
                                         const std::string& tip) {
  VerifiedChain chain;
  std::optional<std::string> at = tip;
  auto bad = [&](const std::string& id, const std::string& why) {
    return Status(Code::kCorrupted, "history of " + lineage + ": " + why)
        .WithLineage(lineage)
        .WithDetail("commit", id);
  };
  while (at) {
    auto commit = ReadHistoryCommit(repo, *at);
    if (!commit.ok()) return bad(*at, commit.status().message());
    auto record = ParseRecordFile(commit->record_file, lineage);
    if (!record.ok()) return bad(*at, record.status().message());
    if (record->revision != commit->revision) return bad(*at, "revision trailer");
    if (chain.commits.empty()) chain.record = *record;
    if (!chain.commits.empty() && commit->terminal()) return bad(*at, "terminal not at tip");
    chain.commits.push_back(*commit);
    at = commit->parent;
  }
  if (chain.tip().terminal()) chain.terminal = chain.tip().verb;
  return chain;
}

}  // namespace gentle::store
