// PatchBound: lower bounds on the bytes of the pinned git patch, from object headers, so that a
// patch over the budget is refused before its blobs are inflated (docs/engine.md: the budget
// refuses and never truncates; a patch that fits is never refused).
//
// A bound is a proof of "at least"; a patch is refused only when its bound passes the budget:
//   - every section starts with "diff --git a/<path> b/<path>\n" (17 + 2 * path bytes; quoting only
//     adds), and when the ids differ has an "index <40 hex>..<40 hex>\n" line (89 bytes or more);
//   - a text section prints every added and every deleted line whole, so at least
//     |old size - new size| bytes;
//   - a binary section is "GIT binary patch\n" and two hunks; a hunk that rebuilds a side from an
//     empty one is a literal: the base85 lines of a zlib stream of that side, and no zlib stream of
//     n bytes is shorter than 6 + n / 1032 bytes (2 header and 4 trailer bytes; every deflate
//     symbol takes at least one bit, a match at least two, and a match covers at most 258 bytes);
//   - text or binary is git's test (export/file_section.h). The size alone settles it for an empty
//     side (text) and above 512 MiB (binary); otherwise it takes the side's first 8000 bytes, and
//     while they are not read the smaller of the two bounds is the bound.
// Sizes and first bytes come from headers and streams that are not hash-checked
// (store/git/object_reader.h): they are used only to refuse.
#ifndef GENTLE_EXPORT_PATCH_BOUND_H_
#define GENTLE_EXPORT_PATCH_BOUND_H_

#include <git2.h>

#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

#include "export/tree_delta.h"
#include "store/status.h"

namespace gentle::exporter {

enum class ContentKind : uint8_t { kUnknown, kText, kBinary };

struct SideFacts {
  uint64_t size = 0;  // content bytes: 0 when absent; a gitlink's "Subproject commit <hex>\n"
  ContentKind kind = ContentKind::kText;
};

struct ChangeFacts {
  bool known = false;  // false: nothing was read for this change (GatherFacts)
  SideFacts old_side;
  SideFacts new_side;
};

// The kind git's test gives a side of `size` bytes whose first bytes are `prefix` (at least the
// first kFirstFewBytes of them, or all), or, with no prefix, what the size alone settles.
ContentKind KindFromSize(uint64_t size);
ContentKind KindFromPrefix(uint64_t size, std::string_view prefix);

// The fewest bytes any zlib stream of n bytes of input takes.
uint64_t DeflatedLowerBound(uint64_t n);

// Facts for each change from the object headers, in patch order. The first change with a blob the
// database cannot describe (missing, another type, unreadable) and every change after it stay
// unknown, so the writer still meets that object in patch order and reports it.
std::vector<ChangeFacts> GatherFacts(git_odb* odb, const std::vector<TreeChange>& changes);

// One change's facts from the object headers; unknown when either side cannot be described.
// GatherFacts is this in patch order, with every change after the first unknown one left unknown
// (KeepKnownPrefix), so changes may be described in any order, on any thread with its own `odb`.
ChangeFacts DescribeChange(git_odb* odb, const TreeChange& change);
void KeepKnownPrefix(std::vector<ChangeFacts>* facts);

// a + b, or UINT64_MAX when that overflows: how the bounds below are summed.
inline uint64_t SaturatingAdd(uint64_t a, uint64_t b) {
  return a > std::numeric_limits<uint64_t>::max() - b ? std::numeric_limits<uint64_t>::max()
                                                      : a + b;
}

// A lower bound on the bytes `change` adds to the patch (two sections for a type change).
uint64_t ChangeLowerBound(const TreeChange& change, const ChangeFacts& facts);

// An upper bound on the bytes `change` adds to the patch, from the facts alone (sizes; an unknown
// kind counts as the larger of text and binary); UINT64_MAX when the facts are not known. A text
// section prints each line of either side at most once, with a one-byte prefix, plus at most one
// "\ No newline at end of file" line per side and one "@@" line (at most 176 bytes with its
// function text) per hunk; hunks are at most 1 + min(old, new) / 7, since git merges two changes
// fewer than seven unchanged lines apart into one hunk. A binary section is at most two literal
// hunks, each of a zlib stream no longer than zlib's compressBound (a delta is chosen only when
// shorter). Headers are bounded by the path's length, every byte quoted.
uint64_t ChangeUpperBound(const TreeChange& change, const ChangeFacts& facts);

// The lower bound the facts prove for the whole patch (ChangeLowerBound summed). While it is at
// most max_bytes and telling text from binary could raise it past, reads the first bytes of loose
// blobs of unknown kind (largest possible gain first) and records their kind in `facts`; stops as
// soon as the bound passes max_bytes or can no longer pass it.
uint64_t ProvenLowerBound(git_odb* odb, const std::vector<TreeChange>& changes, size_t max_bytes,
                          std::vector<ChangeFacts>* facts);

// kBudgetExceeded when the facts prove the patch longer than max_bytes. While they cannot, and
// telling text from binary could, reads the first bytes of loose blobs of unknown kind (largest
// possible gain first) and records their kind in `facts`.
Status RefuseIfProvablyOverBudget(git_odb* odb, const std::vector<TreeChange>& changes,
                                  size_t max_bytes, std::vector<ChangeFacts>* facts);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_PATCH_BOUND_H_
