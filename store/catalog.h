// Catalog: what the store knows about lineages that is not a live record — burned lineages
// (tombstones) and abandoned or reclaimed ones (quarantine audit records) — and the list of live
// lineage directories. Read-only: the index is opened read-only and never created.
#ifndef GENTLE_STORE_CATALOG_H_
#define GENTLE_STORE_CATALOG_H_

#include <optional>
#include <string>
#include <vector>

#include "store/layout.h"
#include "store/status.h"

namespace gentle::store {

// Lineage ids named by the entries under v2/ (names that are not valid ids are skipped; an entry
// that is not a directory is still listed, so reading it reports the damage).
Result<std::vector<std::string>> ListLiveLineages(const StoreLayout& layout);

// Lineage directories under v2/ that hold no record (incomplete entries: an interrupted start, or
// residue another tool left), sorted. Streams the directory: memory grows with the incomplete
// entries only, not with the lineages.
Result<std::vector<std::string>> ListIncompleteEntries(const StoreLayout& layout);

// The tombstone file (absolute path) naming `lineage`, if any: a scan of the tombstone directory.
Result<std::optional<std::string>> FindTombstoneFile(const StoreLayout& layout,
                                                     const std::string& lineage);

// The committed quarantine audit record (reclaim-record.json) of `lineage`, if any.
Result<std::optional<std::string>> FindQuarantineRecord(const StoreLayout& layout,
                                                        const std::string& lineage);

// False only when no tombstone can exist: the tombstone directory is absent, or is a real
// directory with no entry at all (no burn has ever been written). Anything else — an entry, a
// symlink, an unreadable directory — is true, and the caller asks ClassifyAbsent.
bool MayHoldTombstones(const StoreLayout& layout);

// For a lineage with no live record: kConsumed (tombstone path in details), kRetired (audit path
// in details) or kNotFound. Two keyed index lookups (tombstones_by_lineage, then
// quarantine_by_lineage); without a usable index, ClassifyAbsentFromFiles. When neither finds a
// row but the index still holds a lineage row for it (the index is behind the files), the files
// answer too (ClassifyAbsentFromFiles): the files are the truth, the index a cache.
Status ClassifyAbsent(const StoreLayout& layout, const std::string& lineage);
// The same answer from the files alone: a scan of the tombstone and quarantine directories (for
// stores that have no index yet, e.g. written by the Go gentle-ai).
Status ClassifyAbsentFromFiles(const StoreLayout& layout, const std::string& lineage);

// For a lineage with no record (LoadRecord said kNotFound): ClassifyAbsent's answer, except that
// kNotFound with something still at v2/<lineage> is an incomplete entry: kCorrupted (details:
// `directory`). A tombstone or audit record outranks the directory, as the burn or retirement it
// proves took effect once the record was gone.
Status ClassifyRecordless(const StoreLayout& layout, const std::string& lineage);

// The answers ClassifyAbsent gives: `lineage` burned (the tombstone file `tombstone` in details) or
// retired (the audit record `audit_record` in details).
Status ConsumedAnswer(const std::string& lineage, const std::string& tombstone);
Status RetiredAnswer(const std::string& lineage, const std::string& audit_record);

// For a lineage that has a live record: kConsumed (tombstone path in details) when a tombstone
// also claims it, which makes the record a duplicate claim; otherwise what ClassifyAbsent would
// have answered short of kConsumed (kNotFound, or an error). The same verdict as
// ClassifyAbsent(...) == kConsumed with one keyed lookup (tombstones_by_lineage) through a reader
// that compiles nothing else; without a usable index, a scan of the tombstone directory.
Status FindBurnClaim(const StoreLayout& layout, const std::string& lineage);

}  // namespace gentle::store

#endif  // GENTLE_STORE_CATALOG_H_
