// NextAction: the one action a harness should take now (DESIGN.md sections 6 and 12), derived
// from a lineage's state and applicability so that a harness needs no state machine of its own.
// Pure: no I/O; status and export-context gather the facts and print the name.
//
// Per lineage (EntryNext), the first row that applies:
//   corrupted or incomplete                                   repair
//   ambiguous                                                 select_lineage
//   fetched-only (read from a remote's history; nothing here) none
//   reviewing                                                 export (then the envelope: verdict)
//   correction_required, live target moved                    revise
//   correction_required, current_target                       none (waiting for a changed
//   candidate) correction_required, other worktree / not computable      none approved burn
//   escalated, invalidated, decision_required, unknown state  none
// For a whole worktree (EnvelopeNext): repair if any entry needs it; else the actionable entries
// (current_target or ambiguous here, or correction_required with a moved live target; never
// fetched-only): none -> start, or none when the live target cannot be started; one -> its next;
// more -> select_lineage.
#ifndef GENTLE_TRANSACTION_NEXT_ACTION_H_
#define GENTLE_TRANSACTION_NEXT_ACTION_H_

#include <functional>
#include <string_view>
#include <vector>

#include "transaction/applicability.h"

namespace gentle::transaction {

// A closed vocabulary: exactly these eight names.
enum class NextAction { kStart, kExport, kVerdict, kRevise, kBurn, kSelectLineage, kRepair, kNone };

// "start", "export", "verdict", "revise", "burn", "select_lineage", "repair", "none".
std::string_view NextActionName(NextAction action);

// What the derivation reads of one lineage.
struct EntryFacts {
  std::string_view state;  // the record's state name; empty when there is no readable record
  Applicability applicability = Applicability::kUnrelated;
  UnrelatedReason unrelated = UnrelatedReason::kNotUnrelated;
  bool fetched_only = false;  // read from a fetched history: no local record to mutate
};

NextAction EntryNext(const EntryFacts& facts);

// Why EntryNext says none for a lineage that waits on its author (correction_required on the
// very candidate that was sent back), for the status entry's `detail`; empty otherwise.
std::string_view WaitingDetail(const EntryFacts& facts);

// Whether the entry counts towards the worktree's next action (see above).
bool IsActionable(const EntryFacts& facts);

// Whether `review start` of the live target (the default current-changes selector) can start it.
enum class LiveStart {
  kStartable,
  kClean,        // the live candidate has no changed paths
  kBurned,       // its identity already has a burn tombstone in this worktree
  kUnavailable,  // it cannot be computed here (e.g. a bare repository)
};

// The worktree's next action over all of its entries; `live_start` is asked only when no entry is
// actionable.
NextAction EnvelopeNext(const std::vector<EntryFacts>& entries,
                        const std::function<LiveStart()>& live_start);

// The next action once the context of a lineage whose next is `status_next` has been exported:
// export becomes verdict, anything else stays.
NextAction AfterExport(NextAction status_next);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_NEXT_ACTION_H_
