// PrState: what a session keeps about one pull request so that a restarted or compacted session
// resumes instead of starting over (docs/watch.md "PR state"): its phase, the head SHA it last
// worked on, what each round of feedback asked for, and what the PR is blocked on. Kept in the
// watcher's tables of review-loop.sqlite (watch/watch_db.h), one row per PR plus one per round.
//
// Values are checked before anything is written (`usage` naming the flag): phase 1 to 200 bytes
// and blocked-on at most 1,000 bytes, each one line; head SHA 40 or 64 lowercase hex digits;
// round >= 1; asked 1 to 16 KiB of text whose only control byte is a newline. All UTF-8 text is
// stored as given. A set changes only the fields it names (blocked-on "" clears it); a round's
// `asked` replaces that round's. Each set is one transaction.
#ifndef GENTLE_WATCH_PR_STATE_H_
#define GENTLE_WATCH_PR_STATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/status.h"
#include "watch/watch_db.h"

namespace gentle::watch {

inline constexpr std::string_view kPrStateSchema = "gentle-ai.review-pr-state/v1";

struct PrRound {
  int64_t round = 0;
  std::string asked;
};

struct PrState {
  std::string pr;
  std::string phase;
  std::string head_sha;         // "" until set
  std::string blocked_on;       // "": nothing
  std::vector<PrRound> rounds;  // by round
  std::string updated_at;
};

struct PrStateUpdate {
  std::optional<std::string> phase, head_sha, blocked_on;
  std::optional<PrRound> round;
};

Status CheckPrStateUpdate(const PrStateUpdate& update);
Result<std::optional<PrState>> LoadPrState(WatchDb& db, const std::string& pr);
// A PR without state needs --phase in its first set.
Result<PrState> SetPrState(WatchDb& db, const std::string& pr, const PrStateUpdate& update,
                           const std::string& now);
std::string RenderPrStateMarkdown(const PrState& state);

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_PR_STATE_H_
