// RoundContext: how a review round of a lineage was bound to its forge review context, read from
// the lineage's history (docs/loop.md; written by transaction/round_context_binding.h).
//
// A round is opened by a `start` (round 1) or a `revise` commit (its `Round` trailer). Round
// `generation` is bound by the newest opening commit of that round on the first-parent chain from
// `tip` (newer rounds' opening commits are passed over). Its `Context` trailer is the digest of its
// `context.json`, its `Context-Unavailable` trailer the harness's reason. nullopt when the walk
// meets an opening commit of an earlier round first (a round another tool opened, whose binding
// this history does not know), or when the chain has none. Read-only.
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
                                                     const std::string& tip, int64_t round);

}  // namespace gentle::store

#endif  // GENTLE_STORE_ROUND_CONTEXT_H_
