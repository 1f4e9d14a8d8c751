// RoundRecord: a review round's record from a lineage's history (docs/loop.md). Read-only.
// Shared by `review comment` (export/round_verdict.h) and `export-context --round` /
// `--since-round` (export/round_export.h), so both read the same history the same way.
//
// ReadRoundHistory: the history the lineage's reads use (exporter::LoadForRead): the local
// history, the verified fetched history of a fetched-only lineage (`source`), or, for a burned
// lineage, the local or fetched history that keeps its terminal burn commit (`consumed` set; the
// record is then the approved record that burn commit holds). The current record and its
// round come from the store (or the fetched history) as LoadForRead answers; the tip is the
// history ref's commit (nullopt: a lineage whose history has no ref, as a Go-written one). An
// unknown lineage is `not_found`, an abandoned one `retired`, a burn without a history (or with an
// old single-commit pin only) `consumed`; the other LoadForRead refusals stand.
//
// FindRoundCommit: the newest commit on the first-parent chain from `tip` whose record has
// round `round` (the record's `generation` member; when `verb` is given, whose subject names
// `verb`), with that record parsed and verified; nullopt when there is none. The walk stops at an
// old single-commit pin, at the root, or at the first record of a lower round (rounds never fall
// from the root to the tip: docs/format.md, "Fetched histories"). A commit whose record does not
// parse or verify is `corrupted`.
//
// RoundRecordOf: the record of round `round` (the record's `generation`) of `history`: the current
// record for its own round (so a lineage without a history ref still has its current round),
// else FindRoundCommit's. `not_found` (details: round) above the current round or when the
// history holds no commit of that round.
#ifndef GENTLE_EXPORT_ROUND_RECORD_H_
#define GENTLE_EXPORT_ROUND_RECORD_H_

#include <cstdint>
#include <optional>
#include <string>

#include "store/git/repository.h"
#include "store/history_ref.h"
#include "store/history_verb.h"
#include "store/record.h"
#include "store/status.h"

namespace gentle::exporter {

struct RoundHistory {
  store::RecordView record;  // the current record (a burned lineage: the approved one it spent)
  std::string source;        // LoadedRecord::source (export/context_export.h)
  bool fetched = false;      // the fetched history answered, not the local one
  bool consumed = false;     // burned: the history ends in its burn commit
  std::optional<store::HistoryCommit> tip;
};

Result<RoundHistory> ReadRoundHistory(const store::git::Repository& repo,
                                      const std::string& lineage);

struct RoundCommit {
  store::HistoryCommit commit;
  store::RecordView record;
};

Result<std::optional<RoundCommit>> FindRoundCommit(const store::git::Repository& repo,
                                                   const std::string& lineage,
                                                   const std::optional<store::HistoryCommit>& tip,
                                                   int64_t round,
                                                   std::optional<store::HistoryVerb> verb = {});

Result<store::RecordView> RoundRecordOf(const store::git::Repository& repo,
                                        const std::string& lineage, const RoundHistory& history,
                                        int64_t round);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_ROUND_RECORD_H_
