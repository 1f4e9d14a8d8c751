// Signing an approval's history commit the way `git commit -S` signs (docs/format.md,
// signed approvals). In the write side only: the signing program runs under the writer lock.
//
// The user's git configuration, read with libgit2 (the repository's config with the global and
// system files under it):
//   gentle-ai.signApprovals  a boolean: sign every APPROVE as if --sign were given
//   gpg.format               must be `ssh` (unset means openpgp to git): openpgp and x509 are
//                            refused with `usage`
//   user.signingKey          a key file path (`~/` expanded; a private key, or a public key whose
//                            private half ssh-agent holds) or `key::<public key>` (signed through
//                            ssh-agent); unset is `usage`
//   gpg.ssh.program          the signing program, default `ssh-keygen`
// Sign runs `<program> -Y sign -n git -f <key file> [-U] <temp dir>/commit` (exec argv, no shell;
// `-U` for a `key::` literal, as git passes it) in a private temp dir (store/scratch_dir.h, the
// literal key written there), reads `commit.sig`, and removes the directory. A program that
// cannot run, fails, or writes no SSH signature is `usage` (details: program, exit code and its
// first error line, without the line's CR LF): the verdict is then refused before anything is
// written.
#ifndef GENTLE_TRANSACTION_APPROVAL_SIGNER_H_
#define GENTLE_TRANSACTION_APPROVAL_SIGNER_H_

#include <functional>
#include <string>

#include "store/git/repository.h"
#include "store/status.h"

namespace gentle::transaction {

// gentle-ai.signApprovals (false when unset; `usage` when it is not a boolean).
Result<bool> SignApprovalsConfigured(const store::git::Repository& repo);

struct ApprovalSigner {
  std::string program;  // gpg.ssh.program
  std::string key;      // user.signingKey: a path (expanded) or the public key of a key:: literal
  bool literal = false;
};

// The signer the configuration describes; `usage` when it cannot describe one.
Result<ApprovalSigner> LoadApprovalSigner(const store::git::Repository& repo);

// The principal the signing key signs as (`verdict APPROVE --sign` without --actor): the one
// principal of the entries of git config gpg.ssh.allowedSignersFile (`~/` expanded) whose key is
// the signing key (export/allowed_signers.h PrincipalsOfKey). The public key is the key::
// literal, or the key file when it holds a public key, or else `<key file>.pub`. `usage` when the
// config names no file, a file or the key cannot be read, or the key has no principal or several
// (details.principals): --actor names one then. Both files are opened as git opens them
// (store/named_file.h: a symlink is followed; a target that is not a regular file, or one over
// the limit, is refused saying which; export/allowed_signers_source.h ReadAllowedSignersPath).
Result<std::string> SignerPrincipal(const store::git::Repository& repo,
                                    const ApprovalSigner& signer);

// The armored SSH signature of `payload` (namespace "git").
Result<std::string> SignPayload(const ApprovalSigner& signer, const std::string& payload);

// SignPayload for a history commit of `lineage` (store::HistoryCommitSpec::sign): a failure names
// the lineage, as the verdict's other refusals do.
std::function<Result<std::string>(const std::string& payload)> CommitSigner(ApprovalSigner signer,
                                                                            std::string lineage);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_APPROVAL_SIGNER_H_
