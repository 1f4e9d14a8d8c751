// The writer's half of the sessions' PR state (watch/pr_state.h): SetPrState, one transaction of
// review-loop.sqlite. In gentle_watch; the checks, LoadPrState and the Markdown view
// (watch/pr_state.cc) are in gentle_watch_read, which links no writer.
#include "store/index/sqlite_handle.h"
#include "watch/pr_state.h"

namespace gentle::watch {

using store::index::Statement;

Result<PrState> SetPrState(WatchDb& db, const std::string& pr, const PrStateUpdate& update,
                           const std::string& now) {
  GENTLE_RETURN_IF_ERROR(CheckPrStateUpdate(update));
  GENTLE_RETURN_IF_ERROR(db.InTransaction([&]() -> Status {
    GENTLE_ASSIGN_OR_RETURN(std::optional<PrState> current, LoadPrState(db, pr));
    if (!current && !update.phase) {
      return Status(Code::kUsage,
                    "pr-state: " + pr + " has no state yet: the first set needs --phase");
    }
    PrState next = current.value_or(PrState{});
    if (update.phase) next.phase = *update.phase;
    if (update.head_sha) next.head_sha = *update.head_sha;
    if (update.blocked_on) next.blocked_on = *update.blocked_on;
    GENTLE_ASSIGN_OR_RETURN(
        Statement write,
        db.conn().Prepare("INSERT INTO pr_state (pr, phase, head_sha, blocked_on, updated_at) "
                          "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (pr) DO UPDATE SET phase = "
                          "excluded.phase, head_sha = excluded.head_sha, blocked_on = "
                          "excluded.blocked_on, updated_at = excluded.updated_at"));
    write.BindAll(pr, next.phase, next.head_sha, next.blocked_on, now);
    GENTLE_RETURN_IF_ERROR(write.Run());
    if (update.round) {
      GENTLE_ASSIGN_OR_RETURN(
          Statement round,
          db.conn().Prepare("INSERT INTO pr_state_rounds (pr, round, asked) VALUES (?1, ?2, ?3) "
                            "ON CONFLICT (pr, round) DO UPDATE SET asked = excluded.asked"));
      round.BindAll(pr, update.round->round, update.round->asked);
      GENTLE_RETURN_IF_ERROR(round.Run());
    }
    return Status::Ok();
  }));
  GENTLE_ASSIGN_OR_RETURN(std::optional<PrState> stored, LoadPrState(db, pr));
  if (!stored) return Status(Code::kInternal, "pr-state: the state just written is missing");
  return *stored;
}

}  // namespace gentle::watch
