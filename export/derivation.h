// Derivation: re-derives a snapshot's frozen context from the object database and proves it is the
// one the snapshot binds.
//
// The changed-path manifest is computed from the two trees (export/tree_delta.h: statuses A/D/M/T,
// canonical modes) and listed in bytewise path order (a path git reports twice, which only trees
// out of git's canonical order can make it do, keeps git's order); its paths must reproduce the
// snapshot's `paths` and `paths_digest`, else `integrity_mismatch`. The patch, in git's section
// order, comes from the native engine, or from the pinned git CLI with engine "git", under the
// byte budget; either is refused before any blob is read whole when the objects' sizes prove it
// over (export/patch_bound.h). Missing trees or blobs are `objects_missing`.
#ifndef GENTLE_EXPORT_DERIVATION_H_
#define GENTLE_EXPORT_DERIVATION_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "export/engine.h"
#include "export/patch_engine.h"
#include "export/patch_spool.h"
#include "export/view_plan.h"
#include "store/git/repository.h"
#include "store/snapshot.h"
#include "store/status.h"

namespace gentle::exporter {

inline constexpr size_t kMaxContextBytes = 4194304;

// The largest whole diff verify and attest bind (docs/commands.md, "Views and parts"): a change
// whose generated entries take its diff past kMaxContextBytes is still bound, exactly, up to this;
// the derivation holds it whole, so this is also the memory it may take.
inline constexpr size_t kMaxBoundDiffBytes = size_t{64} << 20;

// export-context --view / --max-bytes / --part: which view, split how, and which part (1-based).
struct PartRequest {
  View view = View::kFull;
  uint64_t max_bytes = kNoPartLimit;
  size_t part = 1;
};

// The part a derivation printed (Derived::part).
struct DerivedPart {
  View view = View::kFull;
  uint64_t max_bytes = kNoPartLimit;  // kNoPartLimit: no --max-bytes
  size_t part = 1;
  size_t parts = 1;
  std::vector<std::string> paths;             // the part's entries, patch order
  std::vector<std::string> summarised_paths;  // those of them summarised, patch order
};

struct Derived {
  // With `part`: that part's bytes. Derived with a spool: what follows the spool's bytes.
  std::string patch;
  std::vector<ManifestEntry> manifest;  // bytewise path order; always the whole change's
  Engine engine = Engine::kNative;
  std::optional<DerivedPart> part;
};

// kDigestOnly is for snapshots that carry only the digest of their paths (a context envelope);
// kNone for a pair of trees no record binds (an interdiff).
enum class PathsCheck { kListAndDigest, kDigestOnly, kNone };

// `spool` (the native engine only; export/patch_spool.h): the front of a large patch is kept there
// rather than in Derived::patch. The git engine's patch is all in Derived::patch.
Result<Derived> DeriveContext(const store::git::Repository& repo, const store::Snapshot& snapshot,
                              Engine engine, PathsCheck paths_check = PathsCheck::kListAndDigest,
                              size_t max_bytes = kMaxContextBytes, PatchSpool* spool = nullptr);

// The interdiff between two candidate trees (export-context --since-round): the derivation above
// for the pair (from -> to), with no recorded paths to reproduce; objects_missing and
// budget_exceeded as for any export.
Result<Derived> DeriveInterdiff(const store::git::Repository& repo, const std::string& from_tree,
                                const std::string& to_tree, Engine engine,
                                size_t max_bytes = kMaxContextBytes);

// Part `request.part` of the view of the snapshot's change (export/view_plan.h), the manifest and
// its paths checked as DeriveContext checks them. `generated`: the round's generated paths
// (export/round_generated.h). A part above kMaxContextBytes (one entry of the full view) is
// budget_exceeded naming it; a part number above the parts is `usage` (details count: the parts).
// The native engine only.
Result<Derived> DeriveContextPart(const store::git::Repository& repo,
                                  const store::Snapshot& snapshot, PathsCheck paths_check,
                                  const PartRequest& request,
                                  const std::vector<std::string>& generated);

// The same for the interdiff from `from_tree` to `to_tree`.
Result<Derived> DeriveInterdiffPart(const store::git::Repository& repo,
                                    const std::string& from_tree, const std::string& to_tree,
                                    const PartRequest& request,
                                    const std::vector<std::string>& generated);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_DERIVATION_H_
