// BURN: consume an approved lineage's one-time acknowledgement (docs/lifecycle.md; gentle-ai's
// AcknowledgeApprovedCompactAuthority plus its terminal-consumption tombstone).
//
// Needs the token and the revision the caller read. Takes the exclusive maintenance lock, requires
// state `approved`, compares sha256(token) with the stored approved_ack_token_sha256 in constant
// time (a record written by gentle-ai carries the token itself as approved_ack_token; that is
// compared in constant time too). A wrong token is `forbidden`. Then, each step durable:
//   prepared tombstone row -> tombstone file -> record removed (the point of no return) ->
//   lineage directory removed -> history ref removed -> tombstone row committed, catalog row
//   deleted.
// A record whose current round is bound to a forge context (ledger ids in its identity) gets a
// second tombstone, prepared, written and committed with the first, for the identity of the same
// snapshot without ledger ids, so that its trees asked about without the context (status with the
// PR's selector, start with another context) read as burned; not when that tombstone exists.
// The tombstone's repository key is RepoKey(worktree root of the lineage's original worktree),
// found by matching the record's initial_atomic_start.worktree_identity against the repository's
// worktrees (nothing extra is stored in the record); if that worktree no longer exists, the
// worktree the command runs in.
#ifndef GENTLE_TRANSACTION_BURN_H_
#define GENTLE_TRANSACTION_BURN_H_

#include <string>

#include "store/status.h"

namespace gentle::transaction {

struct BurnRequest {
  std::string cwd = ".";
  std::string lineage;
  std::string token;
  std::string expected_revision;
};

struct BurnResult {
  std::string lineage;
  std::string revision;  // the burned record's revision
  std::string target_identity;
  std::string repository;         // repoKey
  std::string tombstone;          // absolute path of the tombstone file
  bool original_worktree = true;  // false when the original worktree was not found
};

Result<BurnResult> Burn(const BurnRequest& request);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_BURN_H_
