// FSCK (docs/index.md).
//
// Fsck proves that the files, index.sqlite and the history refs agree, read-only (the index is
// opened read-only, with PRAGMA quick_check). Each disagreement is one store::Finding with a stable
// code (docs/lifecycle.md lists them); the store is clean when there is none.
//
// A live writer's work in progress is not a finding: fsck probes the writer lock (v2/LOCK) without
// waiting when it starts and when it ends (store/writer_owner.h, ProbeWriter). Held at either
// probe, or taken and released in between (the lock file changed), a writer was at work: the
// findings its protocol steps show (prepared rows, a history one step off, temp files, a ref lock
// its owner record names) are left out and `live_writer` says so. A dead writer's leftovers are
// reported when no writer is at work.
#ifndef GENTLE_TRANSACTION_FSCK_H_
#define GENTLE_TRANSACTION_FSCK_H_

#include <string>
#include <vector>

#include "store/progress.h"
#include "store/status.h"
#include "store/store_scan.h"

namespace gentle::transaction {

struct FsckReport {
  size_t lineages = 0;
  size_t tombstones = 0;
  size_t quarantine = 0;
  size_t history_refs = 0;
  bool index_present = false;
  // A writer held the store's writer lock during the check: its work in progress is left out.
  bool live_writer = false;
  std::vector<store::Finding> findings;
  bool clean() const { return findings.empty(); }
};

// `progress` (may be null) is told the store's files read (store::ScanStoreFiles) and then the
// histories checked, one phase each.
Result<FsckReport> Fsck(const std::string& cwd, store::Progress* progress = nullptr);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_FSCK_H_
