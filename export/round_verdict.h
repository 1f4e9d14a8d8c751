// RoundVerdict: the verdict a lineage's history holds for one review round, for `review comment`
// (docs/loop.md). Read-only by construction, as attest: the shared maintenance lock only,
// nothing written or created.
//
// A round is what the record's `generation` member numbers. The history is the one the lineage's
// reads use (export/round_record.h ReadRoundHistory): the local history, or the verified fetched
// history of a fetched-only lineage (`source`); for a burned lineage the history that keeps its
// burn commit. The verdict of round N is the newest `verdict` or `co-approve` commit of round N on
// the first-parent chain from that history's tip (export/round_record.h FindRoundCommit), with its
// `verdicts/<N>.md` (a co-approval: its own `co-approval.md`; actor, role, verdict, body) and its
// record's revision, so a docs-reviewer's APPROVE after the code APPROVE renders too. With `role`
// (reviewer or docs-reviewer; anything else `usage`), the newest verdict commit of round N whose
// verdict file names that role: so a docs-reviewer's FIXED and a reviewer's REQUEST_CHANGES of one
// round each render. Without a role, the newest verdict of the round whatever its role. Without
// --round the round is the current record's.
//
// An unknown lineage is `not_found`, an abandoned one `retired`, a burn without a history
// `consumed`; a round < 1 `usage`; a round with no verdict (never given, by that role, or beyond
// the current round) `not_found` (details: round, role); a verdict commit without its verdict
// file `corrupted`.
#ifndef GENTLE_EXPORT_ROUND_VERDICT_H_
#define GENTLE_EXPORT_ROUND_VERDICT_H_

#include <cstdint>
#include <optional>
#include <string>

#include "store/status.h"
#include "store/verdict_name.h"

namespace gentle::exporter {

struct RoundVerdict {
  std::string lineage;
  int64_t round = 0;
  std::string revision;        // the record revision the verdict made
  store::VerdictWord verdict;  // as the verdict file writes it
  store::RoleWord role;
  std::string actor, body;
  std::string source;  // the remote of a fetched history; empty for the local one
};

Result<RoundVerdict> ReadRoundVerdict(const std::string& cwd, const std::string& lineage,
                                      std::optional<int64_t> round,
                                      const std::optional<store::RoleWord>& role = {});

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_ROUND_VERDICT_H_
