// StoreScan: what the files of a store say, independent of index.sqlite (docs/format.md,
// docs/index.md).
//
// ScanStoreFiles reads every lineage directory under v2/, every tombstone under
// terminal-consumption/v1/ and every quarantine audit record, and returns the rows an index of
// those files holds (the input of `review index rebuild`) plus one Finding for each entry that is
// damaged or left half-done by an interrupted mutation (for `review fsck`). It only reads. Its
// cost is proportional to the size of the store: it serves rebuild and fsck, never lookups.
//
// Members it judges with ScanDepth::kEveryMember (docs/lifecycle.md, `review fsck`): a lineage
// directory may hold, beside its record, gentle-ai's review-receipt.json,
// finalize-attempt-journal.json, reviewer-results/ and trace-gaps/; a quarantine directory its
// audit record and residue/. A `.atomic-*` temp file beside a record, in a quarantine directory or
// among the tombstones is `interrupted_write` (in a lineage directory without a record it is part
// of the incomplete entry). Any other member, and a symlink anywhere under the store root (never
// followed), is `unexpected_entry`; the contents of residue/, reviewer-results/, trace-gaps/ and
// the root's other directories are not judged beyond that.
#ifndef GENTLE_STORE_STORE_SCAN_H_
#define GENTLE_STORE_STORE_SCAN_H_

#include <string>
#include <vector>

#include "store/finding.h"
#include "store/index/index_db.h"
#include "store/layout.h"
#include "store/progress.h"
#include "store/record.h"
#include "store/status.h"

namespace gentle::store {

struct StoreFiles {
  index::IndexSnapshot rows;            // committed rows, except prepared audit records
  std::vector<std::string> incomplete;  // lineage directories holding no record
  std::vector<Finding> findings;
};

// kEntries: the rows and the findings about the entries themselves (what rebuild and the readers
// of a store without an index need). kEveryMember also judges the members of every lineage and
// quarantine directory and every symlink under the store root (what fsck reports).
enum class ScanDepth { kEntries, kEveryMember };

// `progress` (may be null) is told the records, tombstones and audit records read, one phase each
// (store/progress.h).
Result<StoreFiles> ScanStoreFiles(const StoreLayout& layout, ScanDepth depth = ScanDepth::kEntries,
                                  Progress* progress = nullptr);

// The catalog row of a record.
index::LineageRow LineageRowOf(const RecordView& record, index::RowStatus status);

// Leftovers of an interrupted `review store reset` beside the store root.
Result<std::vector<std::string>> ResetTrashDirs(const StoreLayout& layout);
inline constexpr std::string_view kResetTrashPrefix = "review-transactions.reset-";

}  // namespace gentle::store

#endif  // GENTLE_STORE_STORE_SCAN_H_
