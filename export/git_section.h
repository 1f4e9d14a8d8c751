// GitSection: one modified file's section written by the pinned git CLI (export/oracle_runner.h)
// instead of in process: a modified blob with a side of 4 GiB or more. From there a delta's copy
// offsets take more than four bytes, where git's encoder follows rules the in-process one does not
// (export/git_delta.h: DeltaIsGitIdenticalFor), and zlib refuses single-call input that large.
//
// Below 4 GiB the file stays in process, packed or loose: for a one-byte edit of a 1 GiB packed
// binary, handing it to git costs git's memory (about three times the process's own) for about the
// same CPU time (docs/performance.md, "A one-byte change to a large binary").
//
// The section's header lines are ours (AppendSectionHeader); git is asked for the diff of the two
// blobs (`git diff <pins> <old blob> <new blob>`), whose own header names the blobs, and what
// follows it is the tree diff's section body byte for byte: a side over git's big-file threshold
// is binary for git by its size, so the body is "GIT binary patch" and its two hunks, which depend
// on the contents only. When git writes a text diff instead (possible only below that threshold,
// in a test build), the section is not taken and the caller writes it in process. Output past
// the budget stops git: budget_exceeded, as in process.
//
// A test build may lower the 4 GiB (store::GitSectionMinBytes, store/test_hooks.h) so that tests
// reach this path with small files.
#ifndef GENTLE_EXPORT_GIT_SECTION_H_
#define GENTLE_EXPORT_GIT_SECTION_H_

#include <git2.h>

#include <string>
#include <string_view>

#include "export/file_section.h"
#include "export/patch_bound.h"
#include "export/tree_delta.h"
#include "store/status.h"

namespace gentle::exporter {

// The side size from which git writes a modified file's section.
inline constexpr uint64_t kGitSectionSideBytes = uint64_t{4} << 30;

// Whether `change` is a modified blob with a side of kGitSectionSideBytes or more (facts from the
// object headers; unknown facts: no).
bool WantsGitSection(const TreeChange& change, const ChangeFacts& facts);

// Appends the section of `path` from `old_side` to `new_side` (both blobs, ids set) as git writes
// it, running git on the objects of `common_dir`. True when appended; false, with `out` as it was,
// when git wrote a text diff for the pair or could not read a blob (one a capture holds in memory,
// store/git/memory_writes.h): the caller then writes the section in process. kBudgetExceeded past
// `max_bytes` (out's total); kInternal when git cannot run or writes a section of another shape.
Result<bool> AppendGitSection(const std::string& common_dir, std::string_view path,
                              const FileSide& old_side, const FileSide& new_side, size_t max_bytes,
                              std::string* out);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_GIT_SECTION_H_
