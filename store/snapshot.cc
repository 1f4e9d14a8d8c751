#include "store/snapshot.h"

#include "store/digests.h"

namespace gentle::store {

std::string ComputeSnapshotIdentity(const Snapshot& s) {
  return SnapshotIdentity(
      {s.kind, s.projection, s.base_tree, s.candidate_tree, s.paths_digest, s.ledger_ids});
}

}  // namespace gentle::store
