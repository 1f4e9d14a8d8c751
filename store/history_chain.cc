#include "store/history_chain.h"

#include <git2.h>

#include <algorithm>
#include <string_view>

#include "store/git/git_file_check.h"
#include "store/git/git_util.h"
#include "store/git/object_reader.h"
#include "store/history_replay.h"
#include "store/history_verb.h"
#include "store/lineage_id.h"
#include "store/review_state.h"
#include "store/verdict_file.h"
#include "store/verdict_name.h"

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
      .WithDetail(DetailKey::kCommit, commit);
}

// Broken, `why` followed by `cause`'s message and its details (an object over its size limit
// keeps object, file, size and limit).
Status BrokenBy(const std::string& lineage, const std::string& commit, const std::string& why,
                const Status& cause) {
  Status out = Broken(lineage, commit, why + cause.message());
  return out.WithDetailsOf(cause, DetailKey::kCommit);
}

// The state a commit's State trailer must name for its record.
StateName ExpectedState(const HistoryCommit& commit, const RecordView& record) {
  const std::optional<TerminalState> terminal = TerminalStateOf(commit.verb);
  return terminal ? StateName(*terminal) : record.state;
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

// What a commit must be before its record is read.
Status CheckShape(const std::string& lineage, const HistoryCommit& commit) {
  if (commit.parent_count > 1) return Broken(lineage, commit.id, "it has more than one parent");
  if (commit.legacy_pin) return Broken(lineage, commit.id, "it holds no review-state.json");
  if (!commit.verb.value() || commit.subject != commit.verb.text() + " " + lineage) {
    return Broken(lineage, commit.id, "its subject is not \"<verb> " + lineage + "\"");
  }
  if (commit.lineage != lineage) {
    return Broken(lineage, commit.id, "its Lineage trailer does not name the lineage");
  }
  return Status::Ok();
}

// A co-approval commit (docs/format.md, "Co-approvals"): an approved record, and its own
// co-approval.md an APPROVE from approved to approved by a named actor.
Status CheckCoApproval(const git::Repository& repo, const std::string& lineage,
                       const HistoryCommit& commit, const RecordView& record) {
  if (!record.state.Is(ReviewState::kApproved) || !commit.verdict.Is(Verdict::kApprove)) {
    return Broken(lineage, commit.id, "a co-approval commit of a record that is not approved");
  }
  const std::string name(kHistoryCoApprovalName);
  auto bytes = ReadHistoryFile(repo, commit.id, name);
  if (!bytes.ok()) return BrokenBy(lineage, commit.id, "its " + name + ": ", bytes.status());
  if (!*bytes) return Broken(lineage, commit.id, "a co-approval commit holds no " + name);
  auto fields = ParseVerdictFile(**bytes);
  if (!fields.ok())
    return Broken(lineage, commit.id, "its " + name + ": " + fields.status().message());
  if (!fields->verdict.Is(Verdict::kApprove) || !fields->from_state.Is(ReviewState::kApproved) ||
      !fields->to_state.Is(ReviewState::kApproved) || fields->actor.empty()) {
    return Broken(lineage, commit.id,
                  "its " + name + " is not an APPROVE of the approved record by a named actor");
  }
  return Status::Ok();
}

// The commit against its record; `later` is its successor (null for the tip, which may be
// terminal).
Status CheckCommit(const git::Repository& repo, git_odb* odb, const std::string& lineage,
                   const HistoryCommit& commit, const RecordView& record,
                   const HistoryCommit* later) {
  if (commit.revision != record.revision) {
    return Broken(lineage, commit.id, "its Revision trailer is not the record's revision");
  }
  if (commit.state != ExpectedState(commit, record)) {
    return Broken(lineage, commit.id, "its State trailer does not match the record");
  }
  if (commit.base_tree != record.current_snapshot.base_tree ||
      commit.candidate_tree != record.current_snapshot.candidate_tree) {
    return Broken(lineage, commit.id, "its base and candidate trees are not the record's");
  }
  // Trees the successor holds too were found present one step ago.
  if (later == nullptr || later->base_tree != commit.base_tree) {
    GENTLE_RETURN_IF_ERROR(CheckTreePresent(odb, lineage, commit, commit.base_tree, "base"));
  }
  if (later == nullptr || later->candidate_tree != commit.candidate_tree) {
    GENTLE_RETURN_IF_ERROR(
        CheckTreePresent(odb, lineage, commit, commit.candidate_tree, "candidate"));
  }
  if (commit.verb.Is(HistoryVerb::kCoApprove))
    GENTLE_RETURN_IF_ERROR(CheckCoApproval(repo, lineage, commit, record));
  if (commit.terminal()) {
    if (later != nullptr) return Broken(lineage, commit.id, "a terminal commit has a successor");
    const bool burn = commit.verb.Is(HistoryVerb::kBurn);
    if (burn && !record.state.Is(ReviewState::kApproved)) {
      return Broken(lineage, commit.id, "a burn commit holds a record that is not approved");
    }
    const std::string file(burn ? kHistoryTombstoneName : kHistoryAuditName);
    GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> bytes,
                            ReadHistoryFile(repo, commit.id, file));
    if (!bytes || bytes->empty()) return Broken(lineage, commit.id, "it holds no " + file);
  }
  return Status::Ok();
}

// `commit`'s record: `later`'s when the two commits hold the same blob (a sync, or a commit that
// changed only its trailers), else read (its bytes kept in commit->record_file when `keep`) and
// parsed.
Result<RecordView> ReadRecord(const git::Repository& repo, const std::string& lineage,
                              HistoryCommit* commit, const HistoryCommit* later,
                              const RecordView& later_record, bool keep) {
  if (later != nullptr && commit->record_blob == later->record_blob) return later_record;
  auto bytes = ReadHistoryRecord(repo, *commit);
  if (!bytes.ok()) return BrokenBy(lineage, commit->id, "its review-state.json: ", bytes.status());
  auto record = ParseRecordFile(*bytes, lineage);
  if (!record.ok()) {
    return Broken(lineage, commit->id, "its review-state.json: " + record.status().message());
  }
  if (keep) commit->record_file = std::move(bytes).value();
  return record;
}

// Measures the history from `tip` before any record of it is read: the commits (their objects
// and trees, each under its own limit) are counted, and the sizes of their records summed from
// the blobs' headers (a record that a commit shares with its successor counted once). `corrupted`
// for a history longer than kMaxHistoryCommits, a record over kMaxRecordBytes, or records over
// kMaxHistoryRecordBytes in all. The number of commits otherwise.
Result<size_t> MeasureHistory(const git::Repository& repo, const std::string& lineage,
                              const std::string& tip) {
  std::optional<std::string> next = tip;
  std::string later_blob;
  uint64_t record_bytes = 0;
  size_t count = 0;
  for (; next; ++count) {
    if (count == kMaxHistoryCommits) {
      return Broken(lineage, *next,
                    "the history is longer than " + std::to_string(kMaxHistoryCommits) +
                        " commits, the limit of one history")
          .WithDetail(DetailKey::kLimit, std::to_string(kMaxHistoryCommits));
    }
    auto commit = ReadHistoryCommit(repo, *next, RecordBytes::kSkip);
    if (!commit.ok()) {
      return BrokenBy(lineage, *next, "the commit cannot be read: ", commit.status());
    }
    if (!commit->legacy_pin && commit->record_blob != later_blob) {
      auto size = HistoryRecordSize(repo, *commit);
      if (!size.ok()) return BrokenBy(lineage, *next, "its review-state.json: ", size.status());
      record_bytes += *size;
      if (record_bytes > kMaxHistoryRecordBytes) {
        return Broken(lineage, *next,
                      "its records exceed " + std::to_string(kMaxHistoryRecordBytes) +
                          " bytes in all, the limit of one history")
            .WithDetail(DetailKey::kLimit, std::to_string(kMaxHistoryRecordBytes));
      }
      later_blob = commit->record_blob;
    }
    next = commit->parent;
  }
  return count;
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
      .WithDetail(DetailKey::kRemote, remote);
}

Result<std::vector<FetchedHistory>> ListFetchedHistories(
    const git::Repository& repo, const std::optional<std::string>& lineage) {
  const std::string glob = std::string(kFetchedPrefix) + "*";
  GENTLE_RETURN_IF_ERROR(git::CheckRefFiles(repo, std::string(kFetchedPrefix)));
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
  GENTLE_ASSIGN_OR_RETURN(size_t length, MeasureHistory(repo, lineage, tip));
  VerifiedChain chain;
  GENTLE_ASSIGN_OR_RETURN(chain.local_tip, LocalHistoryTip(repo, lineage));
  HistoryReplay replay(lineage, chain.local_tip);
  chain.commits.reserve(length);
  // The walk keeps the successor of the commit it checks and that successor's record, nothing
  // else of the commits before (chain.commits holds no record bytes but the tip's).
  HistoryCommit later;
  RecordView later_record;
  std::optional<std::string> next = tip;
  while (next) {
    ReportProgress(progress, "history commits verified", chain.commits.size(), 0);
    auto commit = ReadHistoryCommit(repo, *next, RecordBytes::kSkip);
    if (!commit.ok()) {
      return BrokenBy(lineage, *next, "the commit cannot be read: ", commit.status());
    }
    GENTLE_RETURN_IF_ERROR(CheckShape(lineage, *commit));
    const bool is_tip = chain.commits.empty();
    GENTLE_ASSIGN_OR_RETURN(RecordView record,
                            ReadRecord(repo, lineage, &*commit, is_tip ? nullptr : &later,
                                       later_record, /*keep=*/is_tip));
    GENTLE_RETURN_IF_ERROR(
        CheckCommit(repo, odb.get(), lineage, *commit, record, is_tip ? nullptr : &later));
    if (!is_tip && record.round > later_record.round) {
      return Broken(lineage, commit->id, "its generation is above its successor's");
    }
    GENTLE_RETURN_IF_ERROR(replay.Step(*commit, record));
    if (is_tip) {
      chain.record = record;
      if (commit->terminal()) chain.terminal = commit->verb;
    }
    next = commit->parent;
    chain.commits.push_back(*commit);
    later = std::move(commit).value();
    later_record = std::move(record);
  }
  GENTLE_RETURN_IF_ERROR(replay.Finish());
  ReportProgress(progress, "history commits verified", chain.commits.size(), 0);
  return chain;
}

}  // namespace gentle::store
