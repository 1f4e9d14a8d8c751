// GitSection: one modified file's section written by the pinned git CLI (export/oracle_runner.h)
// instead of in process, where the in-process derivation costs more than git's own.
//
// That is a modified blob with a side over git's big-file threshold (512 MiB) that is not a loose
// object: git packs such a file as it adds it, libgit2 reads a packed object whole through a pack
// window that stays mapped, and the delta is then computed over both sides held whole. Handed to
// git, such a section costs git's time and memory by construction (docs/performance.md, "A
// one-byte change to a large binary"). A loose side is read in pieces (store/git/loose_stream.h)
// and stays in process, unless it is 4 GiB or more, where only git's delta encoder gives git's
// bytes (export/git_delta.h).
//
// The section's header lines are ours (AppendSectionHeader); git is asked for the diff of the two
// blobs (`git diff <pins> <old blob> <new blob>`), whose own header names the blobs, and what
// follows it is the tree diff's section body byte for byte: a side over the threshold is binary
// for git by its size, so the body is "GIT binary patch" and its two hunks, which depend on the
// contents only. When git writes a text diff instead (possible only below the threshold, in a test
// build), the section is not taken and the caller writes it in process. Output past the budget
// stops git: budget_exceeded, as in process.
//
// The threshold is git's big-file threshold; a test build may lower it
// (store::GitSectionMinBytes, store/test_hooks.h) so that tests reach this path with small files.
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

// Whether `change` is a modified blob with a side over the threshold that `odb` holds packed (not
// loose), or a side of 4 GiB or more. Reads object headers only.
bool WantsGitSection(git_odb* odb, const TreeChange& change, const ChangeFacts& facts);

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
