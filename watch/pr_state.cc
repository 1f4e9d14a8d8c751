#include "watch/pr_state.h"

#include <functional>

#include "store/index/sqlite_handle.h"

namespace gentle::watch {
namespace {

using store::index::Statement;

constexpr size_t kMaxPhaseBytes = 200;
constexpr size_t kMaxBlockedBytes = 1000;
constexpr size_t kMaxAskedBytes = 16 * 1024;

// No control byte, except newline when `multiline`.
bool CleanText(std::string_view text, bool multiline) {
  for (unsigned char c : text) {
    if ((c < 0x20 && !(multiline && c == '\n')) || c == 0x7f) return false;
  }
  return true;
}

bool IsHexSha(std::string_view sha) {
  if (sha.size() != 40 && sha.size() != 64) return false;
  for (char c : sha) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

Status Usage(const std::string& why) { return Status(Code::kUsage, "pr-state: " + why); }

}  // namespace

Status CheckPrStateUpdate(const PrStateUpdate& u) {
  if (!u.phase && !u.head_sha && !u.blocked_on && !u.round) {
    return Usage("set needs at least one of --phase, --head-sha, --blocked-on, --round/--asked");
  }
  if (u.phase &&
      (u.phase->empty() || u.phase->size() > kMaxPhaseBytes || !CleanText(*u.phase, false))) {
    return Usage("--phase must be one line of 1 to 200 bytes");
  }
  if (u.head_sha && !IsHexSha(*u.head_sha)) {
    return Usage("--head-sha must be 40 or 64 lowercase hex digits");
  }
  if (u.blocked_on &&
      (u.blocked_on->size() > kMaxBlockedBytes || !CleanText(*u.blocked_on, false))) {
    return Usage("--blocked-on must be one line of at most 1000 bytes");
  }
  if (u.round && (u.round->round < 1 || u.round->asked.empty() ||
                  u.round->asked.size() > kMaxAskedBytes || !CleanText(u.round->asked, true))) {
    return Usage("--round N >= 1 with --asked of 1 to 16 KiB (no control byte but newline)");
  }
  return Status::Ok();
}

Result<std::optional<PrState>> LoadPrState(WatchDb& db, const std::string& pr) {
  GENTLE_ASSIGN_OR_RETURN(Statement row,
                          db.conn().Prepare("SELECT phase, head_sha, blocked_on, updated_at FROM "
                                            "pr_state WHERE pr = ?1"));
  row.Bind(1, pr);
  GENTLE_ASSIGN_OR_RETURN(bool found, row.Step());
  if (!found) return std::optional<PrState>();
  PrState out;
  out.pr = pr;
  out.phase = row.ColumnText(0);
  out.head_sha = row.ColumnText(1);
  out.blocked_on = row.ColumnText(2);
  out.updated_at = row.ColumnText(3);
  GENTLE_ASSIGN_OR_RETURN(
      Statement rounds,
      db.conn().Prepare("SELECT round, asked FROM pr_state_rounds WHERE pr = ?1 ORDER BY round"));
  rounds.Bind(1, pr);
  while (true) {
    GENTLE_ASSIGN_OR_RETURN(bool more, rounds.Step());
    if (!more) break;
    out.rounds.push_back(PrRound{rounds.ColumnInt(0), rounds.ColumnText(1)});
  }
  return std::optional<PrState>(std::move(out));
}

Result<PrState> SetPrState(WatchDb& db, const std::string& pr, const PrStateUpdate& update,
                           const std::string& now) {
  GENTLE_RETURN_IF_ERROR(CheckPrStateUpdate(update));
  GENTLE_RETURN_IF_ERROR(db.InTransaction([&]() -> Status {
    GENTLE_ASSIGN_OR_RETURN(std::optional<PrState> current, LoadPrState(db, pr));
    if (!current && !update.phase) {
      return Usage(pr + " has no state yet: the first set needs --phase");
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
    write.Bind(1, pr).Bind(2, next.phase).Bind(3, next.head_sha).Bind(4, next.blocked_on);
    write.Bind(5, now);
    GENTLE_RETURN_IF_ERROR(write.Run());
    if (update.round) {
      GENTLE_ASSIGN_OR_RETURN(
          Statement round,
          db.conn().Prepare("INSERT INTO pr_state_rounds (pr, round, asked) VALUES (?1, ?2, ?3) "
                            "ON CONFLICT (pr, round) DO UPDATE SET asked = excluded.asked"));
      round.Bind(1, pr).Bind(2, update.round->round).Bind(3, update.round->asked);
      GENTLE_RETURN_IF_ERROR(round.Run());
    }
    return Status::Ok();
  }));
  GENTLE_ASSIGN_OR_RETURN(std::optional<PrState> stored, LoadPrState(db, pr));
  if (!stored) return Status(Code::kInternal, "pr-state: the state just written is missing");
  return *stored;
}

std::string RenderPrStateMarkdown(const PrState& s) {
  std::string out = "# PR state: " + s.pr + "\n\n";
  out += "- Phase: " + s.phase + "\n";
  out += "- Head: " + (s.head_sha.empty() ? std::string("(not recorded)") : s.head_sha) + "\n";
  out += "- Blocked on: " + (s.blocked_on.empty() ? std::string("nothing") : s.blocked_on) + "\n";
  out += "- Updated: " + s.updated_at + "\n";
  if (!s.rounds.empty()) out += "\n## Rounds\n";
  for (const PrRound& round : s.rounds) {
    out += "\n### Round " + std::to_string(round.round) + "\n\n" + round.asked;
    if (round.asked.back() != '\n') out += "\n";
  }
  return out;
}

}  // namespace gentle::watch
