#include "watch/reasons.h"

#include "loop/hint.h"

namespace gentle::watch {

std::vector<std::string> ChangeReasons(const PrMeta& before, const PrMeta& after,
                                       const std::vector<std::string>& new_ids,
                                       const std::vector<std::string>& unseen_ids) {
  const bool ci = before.head_sha != after.head_sha;
  const bool conflicts = after.mergeable == false && before.mergeable != false;
  const bool state =
      before.state != after.state || before.draft != after.draft || before.labels != after.labels;
  const bool edited = before.updated_at != after.updated_at && new_ids.empty();
  const bool comments = !unseen_ids.empty() || (edited && !ci && !conflicts && !state);
  std::vector<std::string> out;
  if (comments) out.emplace_back(loop::HintReasonName(loop::HintReason::kComments));
  if (ci) out.emplace_back(loop::HintReasonName(loop::HintReason::kCi));
  if (conflicts) out.emplace_back(loop::HintReasonName(loop::HintReason::kConflicts));
  if (state) out.emplace_back(loop::HintReasonName(loop::HintReason::kState));
  return out;
}

}  // namespace gentle::watch
