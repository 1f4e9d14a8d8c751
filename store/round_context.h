// RoundContext: how a review round of a lineage was bound to its forge review context, read from
// the lineage's history (DESIGN.md section 12; written by transaction/round_context_binding.h).
//
// A round is opened by a `start` (round 1) or a `revise` commit (its `Round` trailer); the newest
// such commit on the first-parent chain from `tip` opens the current round. Its `Context` trailer
// is the digest of its `context.json`, its `Context-Unavailable` trailer the harness's reason.
// nullopt when the newest opening commit is not of round `generation` (a round another tool
// opened, whose binding this history does not know), or when the chain has none. Read-only.
#ifndef GENTLE_STORE_ROUND_CONTEXT_H_
#define GENTLE_STORE_ROUND_CONTEXT_H_

#include <cstdint>
#include <optional>
#include <string>

#include "store/git/repository.h"
#include "store/status.h"

namespace gentle::store {

struct RoundContext {
  int64_t round = 0;
  std::string commit;              // the start or revise commit that opened the round
  std::string context_digest;      // "" when the round has no context
  std::string unavailable_reason;  // "" when the round is not marked context-unavailable
};

Result<std::optional<RoundContext>> ReadRoundContext(const git::Repository& repo,
                                                     const std::string& tip, int64_t generation);

}  // namespace gentle::store

#endif  // GENTLE_STORE_ROUND_CONTEXT_H_
