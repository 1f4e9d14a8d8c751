#include "watch/pr_state.h"

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
  row.BindAll(pr);
  GENTLE_ASSIGN_OR_RETURN(bool found, row.Step());
  if (!found) return std::optional<PrState>();
  PrState out;
  out.pr = pr;
  row.Read(out.phase, out.head_sha, out.blocked_on, out.updated_at);
  GENTLE_ASSIGN_OR_RETURN(
      Statement rounds,
      db.conn().Prepare("SELECT round, asked FROM pr_state_rounds WHERE pr = ?1 ORDER BY round"));
  rounds.BindAll(pr);
  GENTLE_RETURN_IF_ERROR(store::index::ForEachRow(rounds, [&](const Statement& round) {
    PrRound& next = out.rounds.emplace_back();
    round.Read(next.round, next.asked);
    return true;
  }));
  return std::optional<PrState>(std::move(out));
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
