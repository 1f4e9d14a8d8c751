// DerivePatch: the native patch engine of docs/engine.md.
//
// Re-derives, in process, the patch between two trees, byte-identical to the pinned git CLI oracle
// (export/git_flags.h) run against a bare repository with no attributes. libgit2 supplies objects
// and myers hunks; the tree-to-tree change list is DiffTrees (export/tree_delta.h); the patch text
// (headers, quoting, function context, modes) is written here. Binary sections come from
// AppendBinaryPatch (export/binary_patch.h).
//
// Errors: kObjectsMissing when a tree, subtree or blob is absent; kBudgetExceeded as soon as the
// objects' sizes prove the patch longer than options.max_bytes (before any blob is inflated:
// export/patch_bound.h) or the output would exceed it (generation stops); kInternal for anything
// else. The result never holds a truncated patch. A large side whose section has no content on
// the other side is read as a stream (export/streamed_section.h), so memory stays near the budget
// whatever the blob's size.
//
// Thread-safety: DerivePatch and WritePatch run on the calling thread and, for a patch of many
// files on a machine with more than one CPU, on one helper thread they start and join before
// returning. The helper opens its own repository handle on `repo`'s git directory, then reads
// object headers (the facts that refuse an over-budget patch before any blob is read) and blobs
// through it beside the calling thread; `repo` itself is used only on the calling thread, which
// must not share it with another thread during the call. Calls on different threads with different
// `repo` handles are independent. The two threads hold at most the patch's largest file's blob
// bytes (or 1 MiB) at once, plus at most 2 MiB of a file the helper reads ahead; files over 256 KiB
// are diffed on the calling thread only (export/patch_engine.cc). The finished sections are
// appended on the calling thread and, given a spool, offered to it after each file. Before it
// starts the helper, the engine limits the process to one malloc arena (mallopt M_ARENA_MAX 1) for
// the rest of its life: blocks the helper allocates and the calling thread frees then return to
// one heap.
#ifndef GENTLE_EXPORT_PATCH_ENGINE_H_
#define GENTLE_EXPORT_PATCH_ENGINE_H_

#include <git2.h>

#include <cstddef>
#include <string>
#include <vector>

#include "export/engine.h"
#include "export/patch_bound.h"
#include "export/patch_spool.h"
#include "export/tree_delta.h"
#include "store/status.h"

namespace gentle::exporter {

// One changed path, in patch output order. A type change (file <-> symlink <-> gitlink), which the
// patch shows as a deletion followed by an addition, is one entry with status 'T'.
struct ManifestEntry {
  std::string path;
  char status;           // 'A', 'D', 'M', 'T'
  std::string old_mode;  // 6 octal digits, canonical; "000000" when absent
  std::string new_mode;
  std::string old_oid;  // 40 hex; zeros when absent
  std::string new_oid;
};

struct PatchOptions {
  size_t max_bytes = 4194304;
  // When set, finished sections move there as the patch grows (export/patch_spool.h); the budget
  // counts them, and DerivedPatch::bytes is what follows them.
  PatchSpool* spool = nullptr;
};

struct DerivedPatch {
  std::string bytes;  // the whole patch; with PatchOptions::spool, the part after spool->size()
  std::vector<ManifestEntry> manifest;  // in output order (git's; see export/tree_delta.h)
  Engine engine = Engine::kNative;      // every section, binary ones included
};

Result<DerivedPatch> DerivePatch(git_repository* repo, const git_oid& base_tree,
                                 const git_oid& candidate_tree, const PatchOptions& options);

// The manifest entry of one change: canonical modes as six octal digits, ids as 40 hex (zeros
// for an absent side).
ManifestEntry ManifestEntryOf(const TreeChange& change);

// DerivePatch's second half, for a caller that already holds DiffTrees(base, candidate): one
// section (two for a type change) per change, in the order given.
Result<DerivedPatch> WritePatch(git_repository* repo, const std::vector<TreeChange>& changes,
                                const PatchOptions& options);

// One change's section (two for a type change), exactly as WritePatch writes it, appended to
// `out`; kBudgetExceeded once `out` would pass max_bytes (`facts`, from GatherFacts, refuse a
// change that cannot fit before its blobs are read). On the calling thread, through `repo` alone.
Status AppendChangeSection(git_repository* repo, const TreeChange& change, const ChangeFacts& facts,
                           size_t max_bytes, std::string* out);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_PATCH_ENGINE_H_
