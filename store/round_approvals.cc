#include "store/round_approvals.h"

#include <algorithm>
#include <optional>

#include "store/history_ref.h"
#include "store/history_verb.h"
#include "store/name_table.h"
#include "store/record.h"
#include "store/review_state.h"
#include "store/verdict_file.h"
#include "store/verdict_name.h"

namespace gentle::store {
namespace {

Status BadApproval(const std::string& lineage, const std::string& commit, const std::string& name,
                   const std::string& why) {
  return Status(Code::kCorrupted, "the approval commit " + commit + " of lineage " + lineage +
                                      " holds " + name + " " + why)
      .WithLineage(lineage)
      .WithDetail(DetailKey::kCommit, commit);
}

// The APPROVE verdict file `name` of `commit`.
Result<RoundApproval> ReadApproval(const git::Repository& repo, const std::string& lineage,
                                   const HistoryCommit& commit, const std::string& name,
                                   ApprovalKind kind) {
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> file, ReadHistoryFile(repo, commit.id, name));
  if (!file) return BadApproval(lineage, commit.id, "no", name);
  auto fields = ParseVerdictFile(*file);
  if (!fields.ok()) return BadApproval(lineage, commit.id, "a " + name, "that does not parse");
  if (!fields->verdict.Is(Verdict::kApprove)) {
    return BadApproval(lineage, commit.id, "a " + name, "that is not an APPROVE verdict");
  }
  RoundApproval out;
  out.kind = kind;
  out.commit = commit.id;
  out.actor = fields->actor;
  out.role = fields->role;
  out.at = fields->at;
  return out;
}

// Whether `commit` is the verdict commit that approved `revision`.
bool IsApprovingVerdict(const HistoryCommit& commit, const std::string& lineage,
                        const std::string& revision, int64_t* round) {
  if (!commit.verb.Is(HistoryVerb::kVerdict) || !commit.state.Is(ReviewState::kApproved))
    return false;
  auto record = ParseRecordFile(commit.record_file, lineage);
  if (!record.ok() || record->revision != revision || !record->state.Is(ReviewState::kApproved)) {
    return false;
  }
  *round = record->round;
  return true;
}

}  // namespace

namespace {
constexpr NameTable kApprovalKindNames = MakeNameTable<ApprovalKind>({
    {ApprovalKind::kVerdict, "verdict"},
    {ApprovalKind::kCoApproval, "co_approval"},
});
}  // namespace

std::string_view ApprovalKindName(ApprovalKind kind) { return kApprovalKindNames.Name(kind); }

Result<std::vector<RoundApproval>> RoundApprovals(const git::Repository& repo,
                                                  const std::string& lineage,
                                                  const std::string& tip,
                                                  const std::string& revision) {
  std::vector<RoundApproval> newest_first;
  std::optional<std::string> next = tip;
  for (int walked = 0; next && walked < kMaxRoundCommits; ++walked) {
    GENTLE_ASSIGN_OR_RETURN(HistoryCommit commit, ReadHistoryCommit(repo, *next));
    // The approval made this revision: commits below the first of another revision are older.
    if (commit.legacy_pin || commit.revision != revision) break;
    if (commit.verb.Is(HistoryVerb::kCoApprove) && commit.state.Is(ReviewState::kApproved)) {
      GENTLE_ASSIGN_OR_RETURN(
          RoundApproval approval,
          ReadApproval(repo, lineage, commit, std::string(kHistoryCoApprovalName),
                       ApprovalKind::kCoApproval));
      newest_first.push_back(std::move(approval));
    }
    int64_t round = 0;
    if (IsApprovingVerdict(commit, lineage, revision, &round)) {
      GENTLE_ASSIGN_OR_RETURN(
          RoundApproval approval,
          ReadApproval(repo, lineage, commit, "verdicts/" + std::to_string(round) + ".md",
                       ApprovalKind::kVerdict));
      newest_first.push_back(std::move(approval));
      break;
    }
    next = commit.parent;
  }
  std::reverse(newest_first.begin(), newest_first.end());
  return newest_first;
}

}  // namespace gentle::store
