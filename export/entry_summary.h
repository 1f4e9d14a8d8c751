// EntrySummary: a generated entry as the review view shows it (docs/commands.md, "Views and
// parts"): its section header lines exactly as the pinned git prints them, hunk bodies omitted,
// then one summary line
//
//   summary: added=<A> deleted=<D> old_size=<O> new_size=<N>\n
//
// where A and D are the added and deleted line counts exactly as `git diff --numstat` counts them
// for the entry (decimal; `-` for both when git calls either side binary) and O and N the sizes
// in bytes of the old and new blobs (0 for an absent side; a gitlink side counts the
// "Subproject commit <hex>\n" line git diffs in its place). A type change, which git prints as a
// deletion then an addition, shows both sections' header lines and one summary line: numstat
// counts the pair as one (old contents against new).
//
// Memory: the two sides are read whole (their sizes are bounded by the blob limit of
// export/blob_limit.h at start); the counts come from libgit2's line callbacks, so no hunk text
// is ever held.
//
// Errors: objects_missing (details.path) for a blob the database cannot give; internal for a
// libgit2 failure.
#ifndef GENTLE_EXPORT_ENTRY_SUMMARY_H_
#define GENTLE_EXPORT_ENTRY_SUMMARY_H_

#include <git2.h>

#include <cstdint>
#include <string>

#include "export/tree_delta.h"
#include "store/status.h"

namespace gentle::exporter {

struct Numstat {
  bool binary = false;  // git prints "-\t-"
  uint64_t added = 0;
  uint64_t deleted = 0;
  uint64_t old_size = 0;
  uint64_t new_size = 0;
};

// The counts and sizes of the summary line for `change`.
Result<Numstat> CountNumstat(git_repository* repo, const TreeChange& change);

// The summary line for `stat`, newline included.
std::string SummaryLine(const Numstat& stat);

// Appends the summary of `change` (header lines, then the summary line) to `out`.
Status AppendEntrySummary(git_repository* repo, const TreeChange& change, std::string* out);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_ENTRY_SUMMARY_H_
