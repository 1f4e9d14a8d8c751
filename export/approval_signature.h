// Signed approvals, the read side (docs/ci.md, docs/format.md): which history commit holds a
// lineage's approval, and whether its SSH signature is by a principal the caller allows.
//
// FindApprovalCommit: the `verdict` commit that approved `revision` in the history from `tip`
// (any history: the local ref's or a fetched one's), as store/round_approvals.h finds it (for a
// burned lineage below the burn commit, and below any co-approval). nullopt when no commit does.
//
// CheckApprovalSignature takes a commit id, so it answers for local and fetched histories alike.
// The commit's `gpgsig` (store/git/commit_signature.h) must be an SSH signature that
// `ssh-keygen -Y check-novalidate -n git` accepts over the signed payload, whose key
// `ssh-keygen -Y find-principals` finds in `allowed_signers` (git's allowed signers format), and
// that `ssh-keygen -Y verify -n git -I <principal>` accepts for one of those principals. Anything
// else is `untrusted` (exit 10) with details.commit and details.reason: `unsigned` (no gpgsig),
// `not_ssh` (another kind of signature), `bad_signature` (it does not verify), `not_allowed` (no
// principal of the file holds its key, or none accepts it), `no_verifier` (ssh-keygen cannot be
// run, e.g. not on PATH: the message names it, details.program is "ssh-keygen"); details.key is
// the signing key's fingerprint when ssh-keygen reported it. The allowed signers are the bytes
// loaded once (export/allowed_signers_source.h), written for ssh-keygen to a private temp dir
// (store/scratch_dir.h) outside the store with the signature, removed afterwards; the payload goes
// to stdin. Read-only.
//
// CheckCommitSignature is the same check of any commit (verify --require-signed-commits: the
// commits of the change itself), its messages naming "commit <id> of <range>"; `principal` (may
// be empty) is tried first, as `actor` is.
#ifndef GENTLE_EXPORT_APPROVAL_SIGNATURE_H_
#define GENTLE_EXPORT_APPROVAL_SIGNATURE_H_

#include <optional>
#include <string>
#include <vector>

#include "export/allowed_signers_source.h"
#include "store/git/repository.h"
#include "store/status.h"

namespace gentle::exporter {

Result<std::optional<std::string>> FindApprovalCommit(const store::git::Repository& repo,
                                                      const std::string& lineage,
                                                      const std::string& tip,
                                                      const std::string& revision);

struct ApprovalSignature {
  std::string commit;
  std::string principal;   // the allowed signer that accepted it
  std::string key;         // the key's fingerprint ("SHA256:..."), when reported
  std::string public_key;  // the signing key's wire-format blob
  // The addresses the principal is known by (export/allowed_signers.h PrincipalEmails).
  std::vector<std::string> emails;
};

// `actor` (may be empty): the approval's recorded actor, tried first among the principals that
// hold the key (also when an entry other than the first that find-principals reports gives it
// the key).
Result<ApprovalSignature> CheckApprovalSignature(const store::git::Repository& repo,
                                                 const std::string& commit,
                                                 const AllowedSigners& signers,
                                                 const std::string& actor = "");

Result<ApprovalSignature> CheckCommitSignature(const store::git::Repository& repo,
                                               const std::string& commit, const std::string& range,
                                               const AllowedSigners& signers,
                                               const std::string& principal = "");

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_APPROVAL_SIGNATURE_H_
