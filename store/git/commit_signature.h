// The signature of a commit as `git commit -S` writes it (docs/format.md, signed approvals).
//
// ReadCommitSignature reads commit `id` (its hash checked, store/git/object_reader.h) and splits
// it the way git's verify-commit does: the value of the `gpgsig` header (continuation lines
// joined, their leading space dropped, ending in a newline) and the signed payload, which is the
// commit's bytes without that header. nullopt when the commit has no `gpgsig` header.
// kObjectsMissing when the commit cannot be read; kCorrupted when its header does not parse.
// Read-only; the commit may be any commit of the repository (a local or a fetched history).
#ifndef GENTLE_STORE_GIT_COMMIT_SIGNATURE_H_
#define GENTLE_STORE_GIT_COMMIT_SIGNATURE_H_

#include <optional>
#include <string>

#include "store/git/repository.h"
#include "store/status.h"

namespace gentle::store::git {

struct CommitSignature {
  std::string signature;  // the armored signature ("-----BEGIN SSH SIGNATURE-----\n...")
  std::string payload;    // the bytes it signs
};

Result<std::optional<CommitSignature>> ReadCommitSignature(const Repository& repo,
                                                           const std::string& id);

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_COMMIT_SIGNATURE_H_
