// BlobLimit: the hard limit on one blob of a candidate that start and revise admit
// (docs/lifecycle.md, "Start and revise refuse what could never be exported").
//
// A side above kMaxBlobBytes (512 MiB, git's core.bigFileThreshold: from that size git itself
// treats a file as binary without looking at it and never deltas it in a pack) cannot be reviewed
// whatever its patch's size: a one-byte edit of a 1 GiB binary is a 76 KB delta that takes both
// sides whole in memory to derive (docs/performance.md, "Huge blobs refused from their headers").
// Such a candidate is refused from the objects' headers alone (export/patch_bound.h GatherFacts:
// a loose object's first bytes, a packed one's entry header), before any blob is inflated, so the
// refusal costs the same small memory at any size. Older lineages that hold such a blob keep
// exporting as before: the limit decides admission, never an export.
//
// Contract: RefuseHugeBlob looks at the facts in patch order and answers budget_exceeded (exit 9)
// for the first change with a side above `max_blob_bytes`, its message naming the path, the
// blob's size and the limit, with details path, object (the blob's id), size and limit (decimal);
// Ok otherwise. A change whose facts are unknown (a blob the database cannot describe) is left to
// the writer, which reports it. Sizes come from unchecked headers (store/git/object_reader.h):
// they only ever refuse.
#ifndef GENTLE_EXPORT_BLOB_LIMIT_H_
#define GENTLE_EXPORT_BLOB_LIMIT_H_

#include <cstdint>
#include <vector>

#include "export/patch_bound.h"
#include "export/tree_delta.h"
#include "store/status.h"

namespace gentle::exporter {

inline constexpr uint64_t kMaxBlobBytes = uint64_t{512} << 20;
inline constexpr uint64_t kNoBlobLimit = UINT64_MAX;

Status RefuseHugeBlob(const std::vector<TreeChange>& changes, const std::vector<ChangeFacts>& facts,
                      uint64_t max_blob_bytes);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_BLOB_LIMIT_H_
