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
#include <string>
#include <vector>

#include "export/engine.h"
#include "export/patch_engine.h"
#include "store/git/repository.h"
#include "store/snapshot.h"
#include "store/status.h"

namespace gentle::exporter {

inline constexpr size_t kMaxContextBytes = 4194304;

struct Derived {
  std::string patch;
  std::vector<ManifestEntry> manifest;  // bytewise path order
  Engine engine = Engine::kNative;
};

// kDigestOnly is for snapshots that carry only the digest of their paths (a context envelope);
// kNone for a pair of trees no record binds (an interdiff).
enum class PathsCheck { kListAndDigest, kDigestOnly, kNone };

Result<Derived> DeriveContext(const store::git::Repository& repo, const store::Snapshot& snapshot,
                              Engine engine, PathsCheck paths_check = PathsCheck::kListAndDigest,
                              size_t max_bytes = kMaxContextBytes);

// The interdiff between two candidate trees (export-context --since-round): the derivation above
// for the pair (from -> to), with no recorded paths to reproduce; objects_missing and
// budget_exceeded as for any export.
Result<Derived> DeriveInterdiff(const store::git::Repository& repo, const std::string& from_tree,
                                const std::string& to_tree, Engine engine,
                                size_t max_bytes = kMaxContextBytes);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_DERIVATION_H_
