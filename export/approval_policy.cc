#include "export/approval_policy.h"

#include <git2.h>

#include <set>

#include "export/approval_signature.h"
#include "store/git/git_util.h"

namespace gentle::exporter {
namespace {

using RevwalkPtr = store::git::GitPtr<git_revwalk, git_revwalk_free>;
using CommitPtr = store::git::GitPtr<git_commit, git_commit_free>;

std::string Lower(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

// The author and committer emails of the commits in `base..head`, lowercased.
Result<std::set<std::string>> RangeEmails(const store::git::Repository& repo,
                                          const std::string& base, const std::string& head) {
  auto head_id = store::git::PeelRev(repo.raw(), head, GIT_OBJECT_COMMIT);
  if (!head_id.ok()) return Status(Code::kUsage, "--against: " + head_id.status().message());
  auto base_id = store::git::PeelRev(repo.raw(), base, GIT_OBJECT_COMMIT);
  if (!base_id.ok()) return Status(Code::kUsage, "--base-ref: " + base_id.status().message());
  git_revwalk* raw = nullptr;
  if (git_revwalk_new(&raw, repo.raw()) != 0) {
    return Status(Code::kInternal, "cannot walk commits: " + store::git::LastGitError());
  }
  RevwalkPtr walk(raw);
  if (git_revwalk_push(walk.get(), &*head_id) != 0 ||
      git_revwalk_hide(walk.get(), &*base_id) != 0) {
    return Status(Code::kInternal,
                  "cannot walk " + base + ".." + head + ": " + store::git::LastGitError());
  }
  std::set<std::string> out;
  git_oid id;
  size_t walked = 0;
  int rc = 0;
  while ((rc = git_revwalk_next(&id, walk.get())) == 0) {
    if (++walked > kMaxBaseRangeCommits) {
      return Status(Code::kBudgetExceeded, base + ".." + head + " holds more than " +
                                               std::to_string(kMaxBaseRangeCommits) +
                                               " commits, the limit of one change")
          .WithDetail("limit", std::to_string(kMaxBaseRangeCommits));
    }
    git_commit* commit = nullptr;
    if (git_commit_lookup(&commit, repo.raw(), &id) != 0) {
      return Status(Code::kObjectsMissing,
                    "cannot read commit " + store::git::OidHex(id) + " of " + base + ".." + head);
    }
    CommitPtr owned(commit);
    for (const git_signature* who : {git_commit_author(commit), git_commit_committer(commit)}) {
      if (who != nullptr && who->email != nullptr) out.insert(Lower(who->email));
    }
  }
  if (rc != GIT_ITEROVER) {
    return Status(Code::kInternal,
                  "cannot walk " + base + ".." + head + ": " + store::git::LastGitError());
  }
  return out;
}

// Judges one approval's signature and actor (steps 1 and 2 of the header).
Result<JudgedApproval> JudgeSignature(const store::git::Repository& repo,
                                      const store::RoundApproval& approval,
                                      const std::string& allowed_signers, Status* refusal,
                                      std::vector<std::string>* emails) {
  JudgedApproval out;
  out.approval = approval;
  auto signature = CheckApprovalSignature(repo, approval.commit, allowed_signers, approval.actor);
  if (!signature.ok()) {
    if (signature.status().code() != Code::kUntrusted) return signature.status();
    *refusal = signature.status();
    const auto& details = signature.status().details();
    const auto reason = details.find("reason");
    out.refusal = reason == details.end() ? "untrusted" : reason->second;
    const auto key = details.find("key");
    if (key != details.end()) out.key = key->second;
    return out;
  }
  out.principal = signature->principal;
  out.key = signature->key;
  *emails = signature->emails;
  if (out.principal != approval.actor) out.skip = PolicySkip::kActorMismatch;
  return out;
}

}  // namespace

std::string JudgedApproval::reason() const {
  return skip ? std::string(PolicySkipName(*skip)) : refusal;
}

size_t ApprovalTally::count() const {
  size_t n = 0;
  for (const JudgedApproval& a : approvals) n += a.counted() ? 1 : 0;
  return n;
}

Result<ApprovalTally> TallyApprovals(const store::git::Repository& repo, const std::string& lineage,
                                     const std::optional<std::string>& tip,
                                     const std::string& revision, const ApprovalPolicy& policy) {
  ApprovalTally tally;
  std::vector<store::RoundApproval> approvals;
  if (tip) {
    GENTLE_ASSIGN_OR_RETURN(approvals, store::RoundApprovals(repo, lineage, *tip, revision));
  }
  std::optional<std::set<std::string>> authors;
  if (policy.base_ref) {
    GENTLE_ASSIGN_OR_RETURN(authors, RangeEmails(repo, *policy.base_ref, policy.head));
  }
  std::set<std::string> principals;
  for (const store::RoundApproval& approval : approvals) {
    Status refusal;
    std::vector<std::string> emails;
    GENTLE_ASSIGN_OR_RETURN(
        JudgedApproval judged,
        JudgeSignature(repo, approval, policy.allowed_signers, &refusal, &emails));
    if (approval.kind == store::ApprovalKind::kVerdict) tally.verdict_signature = refusal;
    if (judged.counted() && authors) {
      for (const std::string& email : emails) {
        if (authors->count(Lower(email))) {
          judged.skip = PolicySkip::kSelfApproval;
          judged.detail = email;
          break;
        }
      }
    }
    if (judged.counted() && !principals.insert(judged.principal).second) {
      judged.skip = PolicySkip::kDuplicatePrincipal;
    }
    tally.approvals.push_back(std::move(judged));
  }
  return tally;
}

Status CheckApprovalPolicy(const ApprovalTally& tally, const ApprovalPolicy& policy,
                           const std::string& lineage) {
  if (policy.require_signature) {
    const JudgedApproval* verdict = nullptr;
    for (const JudgedApproval& a : tally.approvals) {
      if (a.approval.kind == store::ApprovalKind::kVerdict) verdict = &a;
    }
    if (verdict == nullptr) {
      return Status(Code::kUntrusted, "lineage " + lineage +
                                          " has no history commit holding its approval, so no "
                                          "signature can vouch for it")
          .WithLineage(lineage)
          .WithDetail("reason", "unsigned");
    }
    if (!tally.verdict_signature.ok()) return Status(tally.verdict_signature).WithLineage(lineage);
    if (verdict->skip == PolicySkip::kActorMismatch) {
      return Status(Code::kUntrusted, "the approval's history commit " + verdict->approval.commit +
                                          " is recorded for actor " + verdict->approval.actor +
                                          " but its signature verifies as " + verdict->principal)
          .WithLineage(lineage)
          .WithDetail("commit", verdict->approval.commit)
          .WithDetail("reason", std::string(PolicySkipName(PolicySkip::kActorMismatch)))
          .WithDetail("actor", verdict->approval.actor)
          .WithDetail("principal", verdict->principal);
    }
  }
  const size_t count = tally.count();
  if (count >= static_cast<size_t>(policy.min_approvals)) return Status::Ok();
  std::string skipped;
  for (const JudgedApproval& a : tally.approvals) {
    if (a.counted()) continue;
    if (!skipped.empty()) skipped += ",";
    skipped += a.approval.commit + ":" + a.reason();
  }
  return Status(Code::kUntrusted, "lineage " + lineage + " has " + std::to_string(count) +
                                      " counted signed approval" + (count == 1 ? "" : "s") +
                                      " of its round, " + std::to_string(policy.min_approvals) +
                                      " required" +
                                      (skipped.empty() ? "" : " (not counted: " + skipped + ")"))
      .WithLineage(lineage)
      .WithDetail("reason", "too_few_approvals")
      .WithDetail("count", std::to_string(count))
      .WithDetail("required", std::to_string(policy.min_approvals))
      .WithDetail("skipped", skipped);
}

}  // namespace gentle::exporter
