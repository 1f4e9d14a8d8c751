#include "export/approval_signature.h"

#include <algorithm>
#include <vector>

#include "export/allowed_signers.h"
#include "export/ssh_signature_blob.h"
#include "store/file_io.h"
#include "store/git/commit_signature.h"
#include "store/program_run.h"
#include "store/round_approvals.h"
#include "store/scratch_dir.h"

namespace gentle::exporter {
namespace {

constexpr const char* kProgram = "ssh-keygen";
constexpr std::string_view kSshSignatureBegin = "-----BEGIN SSH SIGNATURE-----";

// What is checked, for messages: "the approval's history commit <id>" or "commit <id> of ...".
struct Subject {
  std::string commit;
  std::string text;
};

Status Untrusted(const Subject& subject, const std::string& reason, const std::string& why) {
  return Status(Code::kUntrusted, subject.text + " " + why)
      .WithDetail(DetailKey::kCommit, subject.commit)
      .WithDetail(DetailKey::kReason, reason);
}

// "SHA256:..." from ssh-keygen's "... with ED25519 key SHA256:..." line; "" when absent.
std::string KeyFingerprint(const std::string& text) {
  const size_t at = text.find(" key SHA256:");
  if (at == std::string::npos) return "";
  const size_t begin = at + 5;
  const size_t end = text.find_first_of(" \r\n", begin);
  return text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

std::string Trim(const std::string& text) {
  const char* space = " \t\r\n";
  const size_t begin = text.find_first_not_of(space);
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(space) - begin + 1);
}

// A signature that cannot be checked is not trusted: without ssh-keygen the answer is
// `untrusted` (reason `no_verifier`), naming the program, as for a signature that does not verify.
Result<store::ProgramOutput> RunSshKeygen(const Subject& commit,
                                          const std::vector<std::string>& args,
                                          const std::string& input) {
  std::vector<std::string> argv = {kProgram};
  argv.insert(argv.end(), args.begin(), args.end());
  auto run = store::RunProgram(argv, input, store::kSignerDeadline);
  if (!run.ok() && run.status().code() == Code::kBusy) return run.status();
  if (!run.ok()) {
    return Untrusted(commit, "no_verifier",
                     "cannot be checked: verifying signatures needs ssh-keygen (openssh-client): " +
                         run.status().message())
        .WithDetail(DetailKey::kProgram, kProgram);
  }
  return run;
}

// The committer time (seconds since the epoch) of a commit's signed payload; nullopt when it has
// no committer line that ends in "<seconds> <zone>".
std::optional<int64_t> CommitterTime(const std::string& payload) {
  const size_t body = payload.find("\n\n");
  const size_t at = payload.find("\ncommitter ");
  if (at == std::string::npos || (body != std::string::npos && at > body)) return std::nullopt;
  const size_t end = payload.find('\n', at + 1);
  const std::string line = payload.substr(at + 1, end == std::string::npos ? end : end - at - 1);
  const size_t zone = line.rfind(' ');
  const size_t seconds = zone == std::string::npos ? zone : line.rfind(' ', zone - 1);
  if (seconds == std::string::npos || zone - seconds < 2 || zone - seconds > 19) {
    return std::nullopt;
  }
  int64_t out = 0;
  for (size_t i = seconds + 1; i < zone; ++i) {
    if (line[i] < '0' || line[i] > '9') return std::nullopt;
    out = out * 10 + (line[i] - '0');
  }
  return out;
}

// The `untrusted` refusal after ssh-keygen found no principal of the file that accepts the key at
// the commit's time: the reason the file gives (export/allowed_signers.h).
Status SignerRefused(const Subject& commit, const AllowedSigners& signers,
                     const SshSignatureBlob& blob, int64_t time, const std::string& key) {
  const std::string& allowed_signers_file = signers.name;
  const SignerDiagnosis why = DiagnoseSignerRefusal(signers.text, blob.public_key, time, "git");
  const std::string at = SshTimestamp(time);
  std::string text;
  switch (why.refusal) {
    case SignerRefusal::kUnknownKey:
      text = "is signed by a key no principal of " + allowed_signers_file + " holds";
      break;
    case SignerRefusal::kExpired:
      text = "is signed by a key whose allowed signers entry (principal " + why.principal +
             ") expired before the commit's time " + at;
      break;
    case SignerRefusal::kNotYetValid:
      text = "is signed by a key whose allowed signers entry (principal " + why.principal +
             ") is not yet valid at the commit's time " + at;
      break;
    case SignerRefusal::kWrongNamespace:
      text = "is signed by a key " + allowed_signers_file + " does not allow for git signatures " +
             "(principal " + why.principal + ": namespaces excludes git)";
      break;
    case SignerRefusal::kNotAllowed:
      text = "is signed by a key " + allowed_signers_file + " does not allow (principal " +
             why.principal + ")";
      break;
  }
  Status st = Untrusted(commit, std::string(SignerRefusalName(why.refusal)), text);
  st.WithDetail(DetailKey::kCommitTime, at);
  if (!key.empty()) st.WithDetail(DetailKey::kKey, key);
  if (!why.principal.empty()) st.WithDetail(DetailKey::kPrincipal, why.principal);
  return st;
}

}  // namespace

Result<std::optional<std::string>> FindApprovalCommit(const store::git::Repository& repo,
                                                      const std::string& lineage,
                                                      const std::string& tip,
                                                      const std::string& revision) {
  GENTLE_ASSIGN_OR_RETURN(std::vector<store::RoundApproval> approvals,
                          store::RoundApprovals(repo, lineage, tip, revision));
  if (approvals.empty() || approvals.front().kind != store::ApprovalKind::kVerdict) {
    return std::optional<std::string>();
  }
  return std::optional<std::string>(approvals.front().commit);
}

namespace {

Result<ApprovalSignature> CheckSignature(const store::git::Repository& repo, const Subject& commit,
                                         const AllowedSigners& signers, const std::string& actor) {
  GENTLE_ASSIGN_OR_RETURN(std::optional<store::git::CommitSignature> signature,
                          store::git::ReadCommitSignature(repo, commit.commit));
  if (!signature) return Untrusted(commit, "unsigned", "is not signed");
  if (signature->signature.compare(0, kSshSignatureBegin.size(), kSshSignatureBegin) != 0) {
    return Untrusted(commit, "not_ssh", "carries a signature that is not an SSH signature");
  }
  const std::optional<SshSignatureBlob> blob = ParseSshSignatureBlob(signature->signature);
  if (!blob) {
    return Untrusted(commit, "bad_signature", "carries an SSH signature that does not parse");
  }
  if (blob->name_space != "git") {
    return Untrusted(commit, "wrong_namespace",
                     "carries an SSH signature made for the namespace \"" + blob->name_space +
                         "\", not \"git\"")
        .WithDetail(DetailKey::kNamespace, blob->name_space);
  }
  // As `git verify-commit`: the allowed signers' validity is judged at the commit's time, not now.
  const std::optional<int64_t> time = CommitterTime(signature->payload);
  if (!time) return Untrusted(commit, "bad_signature", "has no committer time to verify it at");
  const std::string verify_time = "-Overify-time=" + SshTimestamp(*time);
  std::optional<store::ScratchDir> dir = store::ScratchDir::Create("gentle-ai-verify-");
  // ssh-keygen reads the very bytes judged here, wherever they came from (a file or REF:PATH).
  if (!dir || !dir->WriteFile("signature", signature->signature) ||
      !dir->WriteFile("allowed_signers", signers.text)) {
    return Status(Code::kInternal, "cannot write the signature to a temporary file");
  }
  const std::string sig_file = dir->path() + "/signature";
  const std::string allowed_signers = dir->path() + "/allowed_signers";
  ApprovalSignature out;
  out.commit = commit.commit;

  GENTLE_ASSIGN_OR_RETURN(
      store::ProgramOutput check,
      RunSshKeygen(commit, {"-Y", "check-novalidate", "-n", "git", "-s", sig_file},
                   signature->payload));
  out.key = KeyFingerprint(check.out + "\n" + check.err);
  if (check.exit_code != 0) {
    Status st = Untrusted(commit, "bad_signature", "carries an SSH signature that does not verify");
    if (!out.key.empty()) st.WithDetail(DetailKey::kKey, out.key);
    return st;
  }
  GENTLE_ASSIGN_OR_RETURN(
      store::ProgramOutput found,
      RunSshKeygen(commit,
                   {"-Y", "find-principals", "-s", sig_file, "-f", allowed_signers, verify_time},
                   ""));
  std::vector<std::string> principals;
  if (found.exit_code == 0) {
    size_t pos = 0;
    while (pos < found.out.size()) {
      const size_t end = found.out.find('\n', pos);
      std::string line = Trim(found.out.substr(pos, end == std::string::npos ? end : end - pos));
      if (!line.empty()) principals.push_back(std::move(line));
      if (end == std::string::npos) break;
      pos = end + 1;
    }
  }
  // The recorded actor first: a key several principals hold verifies as the one that approved.
  // find-principals names the first entry's principals only, so an actor another entry of the
  // file gives this key is tried too; `-Y verify -I` decides, as for the others.
  const std::vector<std::string> holders = PrincipalsOfKey(signers.text, blob->public_key);
  if (!actor.empty() && std::find(holders.begin(), holders.end(), actor) != holders.end() &&
      std::find(principals.begin(), principals.end(), actor) == principals.end()) {
    principals.push_back(actor);
  }
  std::stable_partition(principals.begin(), principals.end(),
                        [&](const std::string& p) { return !actor.empty() && p == actor; });
  for (const std::string& principal : principals) {
    GENTLE_ASSIGN_OR_RETURN(store::ProgramOutput verified,
                            RunSshKeygen(commit,
                                         {"-Y", "verify", "-n", "git", "-f", allowed_signers, "-I",
                                          principal, "-s", sig_file, verify_time},
                                         signature->payload));
    if (verified.exit_code == 0) {
      out.principal = principal;
      out.public_key = blob->public_key;
      out.emails = PrincipalEmails(signers.text, blob->public_key, principal);
      return out;
    }
  }
  return SignerRefused(commit, signers, *blob, *time, out.key);
}

}  // namespace

Result<ApprovalSignature> CheckApprovalSignature(const store::git::Repository& repo,
                                                 const std::string& commit,
                                                 const AllowedSigners& signers,
                                                 const std::string& actor) {
  return CheckSignature(repo, Subject{commit, "the approval's history commit " + commit}, signers,
                        actor);
}

Result<ApprovalSignature> CheckCommitSignature(const store::git::Repository& repo,
                                               const std::string& commit, const std::string& range,
                                               const AllowedSigners& signers,
                                               const std::string& principal) {
  return CheckSignature(repo, Subject{commit, "commit " + commit + " of " + range}, signers,
                        principal);
}

}  // namespace gentle::exporter
