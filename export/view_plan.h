// ViewPlan: what the reviewer's view of a change is made of and how it splits into parts
// (docs/commands.md, "Views and parts"), computed before any part is printed.
//
// A view is `full` (every entry's section exactly as the pinned git prints it: the frozen diff)
// or `review` (a generated entry as its summary, export/entry_summary.h; every other entry as in
// `full`). PlanView gives, per entry in manifest (patch) order, its bytes in the view and whether
// it is summarised, and splits the view at entry boundaries, in that order, into the fewest parts
// of at most `max_bytes` bytes: each part takes entries while they fit (greedy in order, which is
// optimal for contiguous parts). An entry larger than `max_bytes`
//   - in the full view, and for a summarised entry in the review view, is a part of its own;
//   - in the review view, not generated, cannot be shown whole: budget_exceeded (exit 9) naming the
//     path (details path, byte_size, byte_size_bound "exact" or "at_least", max_bytes).
// An empty change list is one empty part. Part K (1-based) of the full view is the pinned
// `git diff <base> <candidate> -- <its paths>`, and the parts concatenated are the whole diff.
//
// Memory: one entry at a time. A section is written to be measured and dropped; in the review view
// a section that is not summarised is written at most up to max(max_bytes, kMeasureLimitBytes) and
// refused past it; a summarised entry's hunks are counted, never written.
//
// Errors: objects_missing for a tree entry the database cannot give (as the export); internal.
#ifndef GENTLE_EXPORT_VIEW_PLAN_H_
#define GENTLE_EXPORT_VIEW_PLAN_H_

#include <git2.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "export/tree_delta.h"
#include "store/name_table.h"
#include "store/status.h"

namespace gentle::exporter {

enum class View { kFull, kReview };

inline constexpr store::NameTable kViewNames = store::MakeNameTable<View>({
    {View::kFull, "full"},
    {View::kReview, "review"},
});

constexpr std::string_view ViewName(View view) { return kViewNames.Name(view); }
constexpr std::optional<View> ParseView(std::string_view name) { return kViewNames.Parse(name); }

// No split: every entry in one part.
inline constexpr uint64_t kNoPartLimit = UINT64_MAX;

struct PlannedEntry {
  std::string path;
  uint64_t bytes = 0;       // in the view
  bool summarised = false;  // review view and generated
};

struct ViewPart {
  size_t first = 0;  // index into ViewPlan::entries
  size_t count = 0;
  uint64_t bytes = 0;  // the entries' bytes summed
};

struct ViewPlan {
  View view = View::kFull;
  uint64_t max_bytes = kNoPartLimit;
  std::vector<PlannedEntry> entries;  // manifest order, one per change
  std::vector<ViewPart> parts;        // at least one; in order, covering every entry once
};

// `changes` in patch order (DiffTrees, export/tree_delta.h); `generated` the round's generated
// paths (store/generated_paths.h; any order), which matter only in the review view.
Result<ViewPlan> PlanView(git_repository* repo, const std::vector<TreeChange>& changes,
                          const std::vector<std::string>& generated, View view, uint64_t max_bytes);

// Appends the bytes of `plan`'s part `index` (0-based) to `out`: its entries' sections, or
// summaries for those summarised, exactly as measured.
Status AppendViewPart(git_repository* repo, const std::vector<TreeChange>& changes,
                      const ViewPlan& plan, size_t index, std::string* out);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_VIEW_PLAN_H_
