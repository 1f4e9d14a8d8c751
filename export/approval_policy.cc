#include "export/approval_policy.h"

#include <git2.h>

#include <map>
#include <set>

#include "export/allowed_signers_source.h"
#include "export/approval_signature.h"
#include "export/signer_persons.h"
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

// The commits of `base..head` (rev-list order) and their author and committer emails.
struct RangeCommit {
  std::string id;
  std::string author_email;  // as written
};
struct Range {
  std::string name;  // "base..head"
  std::vector<RangeCommit> commits;
  std::set<std::string> emails;  // authors' and committers', lowercased
};

Result<Range> RangeCommits(const store::git::Repository& repo, const std::string& base,
                           const std::string& head) {
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
  Range out;
  out.name = base + ".." + head;
  git_oid id;
  size_t walked = 0;
  int rc = 0;
  while ((rc = git_revwalk_next(&id, walk.get())) == 0) {
    if (++walked > kMaxBaseRangeCommits) {
      return Status(Code::kBudgetExceeded, base + ".." + head + " holds more than " +
                                               std::to_string(kMaxBaseRangeCommits) +
                                               " commits, the limit of one change")
          .WithDetail(DetailKey::kLimit, std::to_string(kMaxBaseRangeCommits));
    }
    git_commit* commit = nullptr;
    if (git_commit_lookup(&commit, repo.raw(), &id) != 0) {
      return Status(Code::kObjectsMissing,
                    "cannot read commit " + store::git::OidHex(id) + " of " + base + ".." + head);
    }
    CommitPtr owned(commit);
    RangeCommit entry{store::git::OidHex(id), ""};
    const git_signature* author = git_commit_author(commit);
    if (author != nullptr && author->email != nullptr) entry.author_email = author->email;
    for (const git_signature* who : {author, git_commit_committer(commit)}) {
      if (who != nullptr && who->email != nullptr) out.emails.insert(Lower(who->email));
    }
    out.commits.push_back(std::move(entry));
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
                                      const AllowedSigners& allowed_signers, Status* refusal) {
  JudgedApproval out;
  out.approval = approval;
  auto signature = CheckApprovalSignature(repo, approval.commit, allowed_signers, approval.actor);
  if (!signature.ok()) {
    if (signature.status().code() != Code::kUntrusted) return signature.status();
    *refusal = signature.status();
    const std::string* reason = signature.status().detail(DetailKey::kReason);
    out.refusal = reason == nullptr ? "untrusted" : *reason;
    if (const std::string* key = signature.status().detail(DetailKey::kKey)) out.key = *key;
    return out;
  }
  out.principal = signature->principal;
  out.key = signature->key;
  out.public_key = signature->public_key;
  if (out.principal != approval.actor) out.skip = PolicySkip::kActorMismatch;
  return out;
}

}  // namespace

std::string JoinedBy(const JudgedApproval& a) {
  std::string out;
  for (const std::string& link : a.joined_by) out += (out.empty() ? "" : ", ") + link;
  return out;
}

std::string JudgedApproval::reason() const {
  return skip ? std::string(PolicySkipName(*skip)) : refusal;
}

size_t ApprovalTally::count() const {
  size_t n = 0;
  for (const JudgedApproval& a : approvals) n += a.counted() ? 1 : 0;
  return n;
}

namespace {

// Every commit of `range` signed by a key of the file (require_signed_commits).
Result<std::vector<CommitSigner>> CheckRangeSignatures(const store::git::Repository& repo,
                                                       const Range& range,
                                                       const AllowedSigners& signers,
                                                       SignerPersons* persons,
                                                       std::vector<std::string>* public_keys) {
  std::vector<CommitSigner> out;
  for (const RangeCommit& commit : range.commits) {
    GENTLE_ASSIGN_OR_RETURN(
        ApprovalSignature signature,
        CheckCommitSignature(repo, commit.id, range.name, signers, commit.author_email));
    persons->Join(signature.public_key, signature.principal, "commit " + commit.id);
    out.push_back(CommitSigner{commit.id, signature.principal, signature.key, ""});
    public_keys->push_back(signature.public_key);
  }
  return out;
}

// Step 3 for one approval that counts so far, whose signer is `person`. `commit_authors`: the
// persons who signed commits of the range, each with the first such commit.
void JudgeSelfApproval(const SignerPersons& persons, size_t person,
                       const std::optional<Range>& range,
                       const std::map<size_t, std::string>& commit_authors,
                       JudgedApproval* judged) {
  if (!range) return;
  for (const std::string& address : persons.Addresses(person)) {
    if (range->emails.count(address)) {
      judged->skip = PolicySkip::kSelfApproval;
      judged->detail = address;
      return;
    }
  }
  const auto signed_commit = commit_authors.find(person);
  if (signed_commit != commit_authors.end()) {
    judged->skip = PolicySkip::kSelfApproval;
    judged->detail = "signed commit " + signed_commit->second;
  }
}

}  // namespace

Result<ApprovalTally> TallyApprovals(const store::git::Repository& repo, const std::string& lineage,
                                     const std::optional<std::string>& tip,
                                     const std::string& revision, const ApprovalPolicy& policy) {
  ApprovalTally tally;
  std::vector<store::RoundApproval> approvals;
  if (tip) {
    GENTLE_ASSIGN_OR_RETURN(approvals, store::RoundApprovals(repo, lineage, *tip, revision));
  }
  GENTLE_ASSIGN_OR_RETURN(AllowedSigners signers, LoadAllowedSigners(repo, policy.allowed_signers));
  SignerPersons persons(signers.text);
  std::optional<Range> range;
  if (policy.base_ref) {
    GENTLE_ASSIGN_OR_RETURN(range, RangeCommits(repo, *policy.base_ref, policy.head));
  }
  std::vector<std::string> signer_keys;
  if (policy.require_signed_commits && range) {
    GENTLE_ASSIGN_OR_RETURN(tally.commit_signers,
                            CheckRangeSignatures(repo, *range, signers, &persons, &signer_keys));
  }
  for (const store::RoundApproval& approval : approvals) {
    Status refusal;
    GENTLE_ASSIGN_OR_RETURN(JudgedApproval judged,
                            JudgeSignature(repo, approval, signers, &refusal));
    if (approval.kind == store::ApprovalKind::kVerdict) tally.verdict_signature = refusal;
    // Every signature that verified joins its key and principal before persons are compared.
    if (!judged.principal.empty()) persons.PersonOf(judged.public_key, judged.principal);
    tally.approvals.push_back(std::move(judged));
  }
  std::map<size_t, std::string> commit_authors;  // person -> the first commit it signed
  for (size_t i = 0; i < tally.commit_signers.size(); ++i) {
    CommitSigner& signer = tally.commit_signers[i];
    const size_t person = persons.PersonOf(signer_keys[i], signer.principal);
    signer.person = persons.Name(person);
    commit_authors.emplace(person, signer.commit);
  }
  std::map<size_t, const JudgedApproval*> counted;  // person -> the approval that counted
  for (JudgedApproval& judged : tally.approvals) {
    if (judged.principal.empty()) continue;
    const size_t person = persons.PersonOf(judged.public_key, judged.principal);
    judged.person = persons.Name(person);
    if (!judged.counted()) continue;
    JudgeSelfApproval(persons, person, range, commit_authors, &judged);
    if (!judged.counted()) continue;
    const auto earlier = counted.find(person);
    if (earlier == counted.end()) {
      counted.emplace(person, &judged);
      continue;
    }
    judged.same_as = earlier->second->approval.commit;
    if (earlier->second->principal == judged.principal) {
      judged.skip = PolicySkip::kDuplicatePrincipal;
    } else {
      judged.skip = PolicySkip::kSamePerson;
      judged.joined_by = persons.Why(earlier->second->principal, judged.principal);
    }
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
          .WithDetail(DetailKey::kReason, "unsigned");
    }
    if (!tally.verdict_signature.ok()) return Status(tally.verdict_signature).WithLineage(lineage);
    if (verdict->skip == PolicySkip::kActorMismatch) {
      return Status(Code::kUntrusted, "the approval's history commit " + verdict->approval.commit +
                                          " is recorded for actor " + verdict->approval.actor +
                                          " but its signature verifies as " + verdict->principal)
          .WithLineage(lineage)
          .WithDetail(DetailKey::kCommit, verdict->approval.commit)
          .WithDetail(DetailKey::kReason, std::string(PolicySkipName(PolicySkip::kActorMismatch)))
          .WithDetail(DetailKey::kActor, verdict->approval.actor)
          .WithDetail(DetailKey::kPrincipal, verdict->principal);
    }
  }
  const size_t count = tally.count();
  if (count >= static_cast<size_t>(policy.min_approvals)) return Status::Ok();
  std::string skipped, same_person;
  for (const JudgedApproval& a : tally.approvals) {
    if (a.counted()) continue;
    if (!skipped.empty()) skipped += ",";
    skipped += a.approval.commit + ":" + a.reason();
    if (a.skip == PolicySkip::kSamePerson) {
      if (!same_person.empty()) same_person += "; ";
      same_person += a.approval.commit + " with " + a.same_as + " (" + JoinedBy(a) + ")";
    }
  }
  Status st(Code::kUntrusted, "lineage " + lineage + " has " + std::to_string(count) +
                                  " counted signed approval" + (count == 1 ? "" : "s") +
                                  " of its round (one per person), " +
                                  std::to_string(policy.min_approvals) + " required" +
                                  (skipped.empty() ? "" : " (not counted: " + skipped + ")") +
                                  (same_person.empty() ? "" : "; one person: " + same_person));
  st.WithLineage(lineage)
      .WithDetail(DetailKey::kReason, "too_few_approvals")
      .WithDetail(DetailKey::kCount, std::to_string(count))
      .WithDetail(DetailKey::kRequired, std::to_string(policy.min_approvals))
      .WithDetail(DetailKey::kSkipped, skipped);
  if (!same_person.empty()) st.WithDetail(DetailKey::kSamePerson, same_person);
  return st;
}

}  // namespace gentle::exporter
