// A gentle-ai switch in the repository's git configuration (`git config gentle-ai.<name>
// true|false`), read from a snapshot of the configuration libgit2 assembles (system, global,
// repository, worktree). Unset is false; a value git does not read as a boolean is `usage` naming
// the key, so a typo never silently turns a safety switch off.
//
// The switches: gentle-ai.signApprovals (transaction/approval_signer.h) and
// gentle-ai.requireContext (transaction/context_cap.h).
#ifndef GENTLE_TRANSACTION_CONFIG_FLAG_H_
#define GENTLE_TRANSACTION_CONFIG_FLAG_H_

#include "store/git/repository.h"
#include "store/status.h"

namespace gentle::transaction {

Result<bool> ConfigFlag(const store::git::Repository& repo, const char* key);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_CONFIG_FLAG_H_
