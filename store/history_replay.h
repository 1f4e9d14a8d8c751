// HistoryReplay: the lineage state machine replayed over a history chain (docs/lifecycle.md,
// "Replaying a history"; docs/reliability.md, "Fetched and imported histories").
//
// Each commit of a history is checked alone by the chain verification (store/history_chain.h);
// the replay checks the step from each commit's parent to it: a commit is accepted only as a
// transition the verbs could have made from its parent's record. The table, from the verbs'
// own checks (transaction/):
//   start       only the root: round 1, `reviewing`, its initial snapshot its current one;
//   verdict     from `reviewing` or `correction_required`; the Verdict trailer names one of
//               APPROVE, REQUEST_CHANGES, NEEDS_DISCUSSION, FIXED, NO_CHANGES and the record's
//               state is VerdictTarget's; round and both snapshots are the parent's (a
//               verdict never moves a tree). An APPROVE in a round whose start or revise commit
//               carries Context-Unavailable is refused, as the verdict verb refuses it;
//   revise      only from `correction_required`: the next round, `reviewing`, the same
//               initial snapshot and a current snapshot that is not the parent's;
//   invalidate  only from `reviewing` in round 1: `invalidated`, snapshots kept;
//   co-approve  only from `approved`: a further APPROVE by another actor (docs/format.md,
//               "Co-approvals"), holding the parent's record (the same blob) and trees;
//   burn        only from `approved`, holding the parent's record (the same revision);
//   abandon     from a state abandon accepts (store/review_state.h AcceptsAbandon), holding the
//               parent's record;
//   sync        a commit of the record as another tool left it (store/history_sync.h): it proves
//               nothing about how the record got there, so it is accepted only where this store
//               already holds it, at or below the local history's tip. The same holds for a root
//               that is not a start commit.
// Commits at or below the local tip (refs/gentle-ai/reviews/<lineage>) are this store's own
// history and are not judged again; every commit above it is. Every commit other than a sync keeps
// the initial snapshot of its parent.
//
// Step is given the commits from the tip to the root (the order the chain is walked), each with
// its parsed record; Finish after the root. A refusal is `corrupted` naming the offending commit
// (details.commit). Pure: no I/O.
#ifndef GENTLE_STORE_HISTORY_REPLAY_H_
#define GENTLE_STORE_HISTORY_REPLAY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "store/history_ref.h"
#include "store/record.h"
#include "store/review_state.h"
#include "store/status.h"
#include "store/verdict_name.h"

namespace gentle::store {

// The state a verdict word moves a record in `from` to: APPROVE approved, REQUEST_CHANGES
// correction_required, NEEDS_DISCUSSION escalated; FIXED and NO_CHANGES (docs verdicts) keep
// `from`. nullopt for no verdict (a word this build does not know).
std::optional<ReviewState> VerdictTarget(std::optional<Verdict> verdict, ReviewState from);

// Whether a verdict may be given to a record in `state`: reviewing or correction_required.
bool AcceptsVerdict(const StateName& state);

class HistoryReplay {
 public:
  // `local_tip`: the local history ref's target, nullopt when there is none.
  HistoryReplay(std::string lineage, std::optional<std::string> local_tip);

  [[nodiscard]] Status Step(const HistoryCommit& commit, const RecordView& record);
  [[nodiscard]] Status Finish() const;

 private:
  // What the replay keeps of one commit.
  struct Point {
    std::string id, revision, record_blob, context_unavailable;
    HistoryVerbWord verb;
    VerdictWord verdict;
    StateName state;
    int64_t round = 0;
    std::string initial_identity, current_identity, base_tree, candidate_tree;
    bool local = false;  // at or below the local tip
  };
  static Point PointOf(const HistoryCommit& commit, const RecordView& record, bool local);
  Status CheckStep(const Point& parent, const Point& child) const;
  Status CheckRoot(const Point& root) const;
  Status Broken(const std::string& commit, const std::string& why) const;

  std::string lineage_;
  std::optional<std::string> local_tip_;
  bool reached_local_ = false;
  std::optional<Point> later_;  // the commit Step saw last: the child of the next one
  // An APPROVE above the local tip, waiting for its round's opening commit.
  std::optional<Point> approval_;
};

}  // namespace gentle::store

#endif  // GENTLE_STORE_HISTORY_REPLAY_H_
