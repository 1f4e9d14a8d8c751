// Why a pull request wakes its session (docs/watch.md "Reasons"): the hint's reason labels from
// two readings of its metadata and the comment/review ids that appeared in between.
//   ci         the head SHA moved
//   conflicts  the forge now reports the PR unmergeable (and did not before)
//   state      open/closed/merged, the draft flag, or the labels changed
//   comments   new ids the PR's seen ledger does not hold, or, when nothing else is identifiable,
//              an updated_at that moved with no new id at all (an edit)
// New ids that are all in the seen ledger (the session's own reply, recorded at post time) give
// no `comments`: with nothing else changed, no hint at all. Order: comments, ci, conflicts,
// state. Pure.
#ifndef GENTLE_WATCH_REASONS_H_
#define GENTLE_WATCH_REASONS_H_

#include <string>
#include <vector>

#include "watch/pr_meta.h"

namespace gentle::watch {

// `new_ids`: ids listed now and not at the previous reading; `unseen_ids`: those of them the seen
// ledger does not hold.
std::vector<std::string> ChangeReasons(const PrMeta& before, const PrMeta& after,
                                       const std::vector<std::string>& new_ids,
                                       const std::vector<std::string>& unseen_ids);

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_REASONS_H_
