// PrMeta: what the watcher reads of a pull request (docs/watch.md "What it reads"): metadata and
// ids, never a body. Parsed from GitHub's and Gitea's REST shapes (they agree on these members):
//   number, state ("open" | "closed"), merged (bool) or merged_at (non-null: merged), draft,
//   mergeable (bool or null), head.sha, head.ref, updated_at, labels[].name.
// state and merged read as one watch::ForgePrState (watch/forge_pr_state.h).
// updated_at is normalised to UTC seconds (YYYY-MM-DDTHH:MM:SSZ, the hint's `updated=`).
//
// The JSON is untrusted: at most 32 levels deep, no duplicate keys, each member type-checked;
// anything else is `corrupted` naming the answer and the JSON path. Unknown members (every body
// included) are never looked at. At most kMaxListedIds ids and kMaxLabels labels. Pure, no I/O.
#ifndef GENTLE_WATCH_PR_META_H_
#define GENTLE_WATCH_PR_META_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/status.h"
#include "watch/forge_pr_state.h"

namespace gentle::watch {

inline constexpr size_t kMaxListedIds = 10000;
inline constexpr size_t kMaxLabels = 100;

struct PrMeta {
  int64_t number = 0;
  ForgePrState state = ForgePrState::kOpen;
  bool draft = false;
  std::optional<bool> mergeable;  // nothing: the forge has not computed it
  std::string head_sha;
  std::string head_ref;
  std::string updated_at;           // UTC seconds
  std::vector<std::string> labels;  // sorted

  bool Terminal() const { return state != ForgePrState::kOpen; }
  bool operator==(const PrMeta&) const = default;
};

// `what` names the answer in errors ("pulls/7").
Result<PrMeta> ParsePrMeta(std::string_view json, std::string_view what);
// An array of PR objects (the open-PR list).
Result<std::vector<PrMeta>> ParsePrList(std::string_view json, std::string_view what);
// An array of objects each with an integer `id` >= 1: the ids as decimal text, in order. With
// `comment_counts`, each object's `comments_count` too (an integer >= 0; absent: 0): Gitea's
// reviews say so how many review comments each holds.
Result<std::vector<std::string>> ParseIdList(std::string_view json, std::string_view what,
                                             std::vector<int64_t>* comment_counts = nullptr);

// PrMeta as a JSON object and back (the watch state's column; same members as above).
std::string EncodePrMeta(const PrMeta& meta);
Result<PrMeta> DecodePrMeta(std::string_view json);

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_PR_META_H_
