// FSCK and INDEX REBUILD (DESIGN.md section 5).
//
// Fsck proves that the files, index.sqlite and the pin refs agree, read-only (the index is opened
// read-only, with PRAGMA quick_check). Each disagreement is one store::Finding with a stable code
// (docs/lifecycle.md lists them); the store is clean when there is none.
// RebuildIndex regenerates index.sqlite from the files alone, under the exclusive maintenance lock
// and the writer lock, after removing the temp files of interrupted writes (the
// `interrupted_write` findings) and finishing interrupted mutations the files reveal
// (store::index::RebuildIndex); it replaces an index from a newer release too (the explicit way out
// of it). A bare repository is refused with `usage` before anything is created, as for start.
#ifndef GENTLE_TRANSACTION_FSCK_H_
#define GENTLE_TRANSACTION_FSCK_H_

#include <string>
#include <vector>

#include "store/index/index_sync.h"
#include "store/status.h"
#include "store/store_scan.h"

namespace gentle::transaction {

struct FsckReport {
  size_t lineages = 0;
  size_t tombstones = 0;
  size_t quarantine = 0;
  size_t pin_refs = 0;
  bool index_present = false;
  std::vector<store::Finding> findings;
  bool clean() const { return findings.empty(); }
};

Result<FsckReport> Fsck(const std::string& cwd);

Result<store::index::RebuildReport> RebuildIndexCommand(const std::string& cwd);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_FSCK_H_
