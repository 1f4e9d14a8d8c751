#include "store/history_chain.h"

#include <git2.h>

#include <algorithm>
#include <string_view>

#include "store/git/git_util.h"
#include "store/git/object_reader.h"
#include "store/history_replay.h"
#include "store/lineage_id.h"
#include "store/review_state.h"

namespace gentle::store {
namespace {

constexpr std::string_view kFetchedPrefix = "refs/gentle-ai/remotes/";
constexpr std::string_view kReviewsPart = "/reviews/";

bool IsRemoteChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '-';
}

bool EndsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Status Broken(const std::string& lineage, const std::string& commit, const std::string& why) {
  return Status(Code::kCorrupted, "the history of lineage " + lineage + " is not valid at commit " +
                                      commit + ": " + why)
      .WithLineage(lineage)
      .WithDetail("commit", commit);
}

bool IsHistoryVerb(const std::string& verb) {
  static const char* const kVerbs[] = {"start",   "verdict", "invalidate", "burn",
                                       "abandon", "sync",    "revise"};
  return std::any_of(std::begin(kVerbs), std::end(kVerbs),
                     [&](const char* v) { return verb == v; });
}

// The state a commit's State trailer must name for its record.
std::string ExpectedState(const HistoryCommit& commit, const RecordView& record) {
  if (commit.verb == "burn") return "consumed";
  if (commit.verb == "abandon") return "retired";
  return record.state;
}

Status CheckTreePresent(git_odb* odb, const std::string& lineage, const HistoryCommit& commit,
                        const std::string& tree_hex, const char* what) {
  auto id = git::ParseOidHex(tree_hex);
  if (!id.ok()) return Broken(lineage, commit.id, std::string("its ") + what + " tree is missing");
  auto header = git::ReadObjectHeader(odb, *id);
  if (!header.ok() || header->type != GIT_OBJECT_TREE) {
    return Broken(lineage, commit.id,
                  std::string("its ") + what + " tree " + tree_hex + " is not in this repository");
  }
  return Status::Ok();
}

// One commit on its own; `is_tip` allows a terminal commit.
Result<RecordView> CheckCommit(const git::Repository& repo, git_odb* odb,
                               const std::string& lineage, const HistoryCommit& commit,
                               bool is_tip) {
  if (commit.parent_count > 1) return Broken(lineage, commit.id, "it has more than one parent");
  if (commit.legacy_pin) return Broken(lineage, commit.id, "it holds no review-state.json");
  if (!IsHistoryVerb(commit.verb) || commit.subject != commit.verb + " " + lineage) {
    return Broken(lineage, commit.id, "its subject is not \"<verb> " + lineage + "\"");
  }
  if (commit.lineage != lineage) {
    return Broken(lineage, commit.id, "its Lineage trailer does not name the lineage");
  }
  auto record = ParseRecordFile(commit.record_file, lineage);
  if (!record.ok()) {
    return Broken(lineage, commit.id, "its review-state.json: " + record.status().message());
  }
  if (commit.revision != record->revision) {
    return Broken(lineage, commit.id, "its Revision trailer is not the record's revision");
  }
  if (commit.state != ExpectedState(commit, *record)) {
    return Broken(lineage, commit.id, "its State trailer does not match the record");
  }
  if (commit.base_tree != record->current_snapshot.base_tree ||
      commit.candidate_tree != record->current_snapshot.candidate_tree) {
    return Broken(lineage, commit.id, "its base and candidate trees are not the record's");
  }
  GENTLE_RETURN_IF_ERROR(CheckTreePresent(odb, lineage, commit, commit.base_tree, "base"));
  GENTLE_RETURN_IF_ERROR(
      CheckTreePresent(odb, lineage, commit, commit.candidate_tree, "candidate"));
  if (commit.terminal()) {
    if (!is_tip) return Broken(lineage, commit.id, "a terminal commit has a successor");
    const bool burn = commit.verb == "burn";
    if (burn && !IsState(record->state, ReviewState::kApproved)) {
      return Broken(lineage, commit.id, "a burn commit holds a record that is not approved");
    }
    const std::string file(burn ? kHistoryTombstoneName : kHistoryAuditName);
    GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> bytes,
                            ReadHistoryFile(repo, commit.id, file));
    if (!bytes || bytes->empty()) return Broken(lineage, commit.id, "it holds no " + file);
  }
  return record;
}

}  // namespace

std::string FetchedHistoryRefName(const std::string& remote, const std::string& lineage) {
  return std::string(kFetchedPrefix) + remote + std::string(kReviewsPart) + lineage;
}

Status ValidateRemoteName(const std::string& remote) {
  const bool valid = !remote.empty() && remote.size() <= 100 && remote.front() != '-' &&
                     remote.front() != '.' && remote.back() != '.' && !EndsWith(remote, ".lock") &&
                     remote.find("..") == std::string::npos &&
                     std::all_of(remote.begin(), remote.end(), IsRemoteChar);
  if (valid) return Status::Ok();
  return Status(Code::kUsage,
                "remote name must be 1 to 100 characters of letters, digits, '.', '_' and '-', "
                "not starting with '-' or '.'")
      .WithDetail("remote", remote);
}

Result<std::vector<FetchedHistory>> ListFetchedHistories(
    const git::Repository& repo, const std::optional<std::string>& lineage) {
  const std::string glob = std::string(kFetchedPrefix) + "*";
  git_reference_iterator* raw = nullptr;
  if (git_reference_iterator_glob_new(&raw, repo.raw(), glob.c_str()) != 0) {
    return Status(Code::kInternal, "cannot list fetched histories: " + git::LastGitError());
  }
  git::GitPtr<git_reference_iterator, git_reference_iterator_free> it(raw);
  std::vector<FetchedHistory> out;
  const char* name = nullptr;
  while (git_reference_next_name(&name, it.get()) == 0) {
    const std::string full(name);
    const size_t reviews = full.find(kReviewsPart, kFetchedPrefix.size());
    if (full.compare(0, kFetchedPrefix.size(), kFetchedPrefix) != 0 ||
        reviews == std::string::npos) {
      continue;
    }
    FetchedHistory entry;
    entry.remote = full.substr(kFetchedPrefix.size(), reviews - kFetchedPrefix.size());
    entry.lineage = full.substr(reviews + kReviewsPart.size());
    if (!ValidateRemoteName(entry.remote).ok() || !IsValidLineageId(entry.lineage)) continue;
    if (lineage && entry.lineage != *lineage) continue;
    git_oid target;
    if (git_reference_name_to_id(&target, repo.raw(), name) != 0) {
      return Status(Code::kInternal, "cannot read " + full + ": " + git::LastGitError());
    }
    entry.tip = git::OidHex(target);
    out.push_back(std::move(entry));
  }
  std::sort(out.begin(), out.end(), [](const FetchedHistory& a, const FetchedHistory& b) {
    return a.lineage != b.lineage ? a.lineage < b.lineage : a.remote < b.remote;
  });
  return out;
}

Result<VerifiedChain> VerifyHistoryChain(const git::Repository& repo, const std::string& lineage,
                                         const std::string& tip, Progress* progress) {
  GENTLE_RETURN_IF_ERROR(ValidateLineageId(lineage));
  GENTLE_ASSIGN_OR_RETURN(git::OdbPtr odb, git::RepositoryOdb(repo.raw()));
  VerifiedChain chain;
  GENTLE_ASSIGN_OR_RETURN(chain.local_tip, LocalHistoryTip(repo, lineage));
  HistoryReplay replay(lineage, chain.local_tip);
  std::optional<std::string> next = tip;
  int64_t later_generation = INT64_MAX;
  while (next) {
    ReportProgress(progress, "history commits verified", chain.commits.size(), 0);
    if (chain.commits.size() >= kMaxHistoryCommits) {
      return Broken(lineage, *next, "the history is longer than the limit");
    }
    auto commit = ReadHistoryCommit(repo, *next);
    if (!commit.ok()) {
      return Broken(lineage, *next, "the commit cannot be read: " + commit.status().message());
    }
    GENTLE_ASSIGN_OR_RETURN(RecordView record,
                            CheckCommit(repo, odb.get(), lineage, *commit, chain.commits.empty()));
    if (record.generation > later_generation) {
      return Broken(lineage, commit->id, "its generation is above its successor's");
    }
    later_generation = record.generation;
    GENTLE_RETURN_IF_ERROR(replay.Step(*commit, record));
    if (chain.commits.empty()) {
      chain.record = std::move(record);
      if (commit->terminal()) chain.terminal = commit->verb;
    }
    next = commit->parent;
    chain.commits.push_back(std::move(commit).value());
  }
  GENTLE_RETURN_IF_ERROR(replay.Finish());
  ReportProgress(progress, "history commits verified", chain.commits.size(), 0);
  return chain;
}

}  // namespace gentle::store
