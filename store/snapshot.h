// Snapshot: the frozen candidate a lineage binds (docs/format.md): two tree ids, the changed
// paths between them and the digests over both. Immutable once written into a record.
#ifndef GENTLE_STORE_SNAPSHOT_H_
#define GENTLE_STORE_SNAPSHOT_H_

#include <string>
#include <string_view>
#include <vector>

namespace gentle::store {

// A snapshot's projection: what its candidate tree was taken from. The workspace is the default
// and is held as "" (a record or envelope that names it "workspace" reads as ""); the git index,
// `start --staged`, is "staged". Records and envelopes hold these names.
inline constexpr std::string_view kProjectionStaged = "staged";
inline constexpr std::string_view kProjectionWorkspace = "workspace";

struct Snapshot {
  std::string kind;  // current-changes | base-diff | commit-range (others read from Go stores)
  std::string projection;  // "" (workspace) or kProjectionStaged
  bool unborn_head = false;
  std::string base_tree;
  std::string candidate_tree;
  std::string paths_digest;
  std::vector<std::string> intended_untracked;
  std::string intended_untracked_proof;
  std::vector<std::string> ledger_ids;
  std::vector<std::string> paths;  // sorted bytewise
  std::string identity;            // the target identity

  bool operator==(const Snapshot&) const = default;
};

// Recomputes the identity from the snapshot's own fields.
std::string ComputeSnapshotIdentity(const Snapshot& snapshot);

}  // namespace gentle::store

#endif  // GENTLE_STORE_SNAPSHOT_H_
