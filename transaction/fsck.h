// FSCK (DESIGN.md section 5).
//
// Fsck proves that the files, index.sqlite and the pin refs agree, read-only (the index is opened
// read-only, with PRAGMA quick_check). Each disagreement is one store::Finding with a stable code
// (docs/lifecycle.md lists them); the store is clean when there is none.
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
  size_t pin_refs = 0;
  bool index_present = false;
  std::vector<store::Finding> findings;
  bool clean() const { return findings.empty(); }
};

// `progress` (may be null) is told the store's files read (store::ScanStoreFiles) and then the
// histories checked, one phase each.
Result<FsckReport> Fsck(const std::string& cwd, store::Progress* progress = nullptr);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_FSCK_H_
