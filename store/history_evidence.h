// The burn or retirement a lineage's own history proves, found by name: for a lineage with no
// record whose index knows nothing of it (no lineage row, no tombstone or quarantine row: rows
// deleted by hand, or an index copy older than the lineage put back), the store's files are still
// the truth, and the lineage's local history ref (refs/gentle-ai/reviews/<lineage>) names them.
//
// ClassifyFromHistory reads that ref's tip. A burn commit's tombstone.json gives the tombstone
// file's name (its repository and target); an abandon commit's reclaim-record.json gives the
// quarantine entry's name (the last component of its quarantine_path). That one file is read from
// the store, as ClassifyAbsentFromFiles reads each (strictly, symlinks refused) and must name the
// lineage (an audit record must be committed, or prepared with its residue in place):
//   kConsumed (details.tombstone) / kRetired (details.audit_record), the answers of catalog.h;
//   kNotFound when there is no ref, its tip is not terminal, or the store no longer holds the file
//   it names;
//   kCorrupted when the file it names is damaged or names another lineage, or the history itself
//   cannot be read (as every reader of it refuses it).
// No directory is scanned: one ref lookup, one commit and one blob read, one file read.
//
// ClassifyRecordlessHere: ClassifyRecordless (catalog.h), and ClassifyFromHistory when that says
// kNotFound: what the store's files prove (what `review import` asks, which rewrites provenance).
//
// AnswerRecordless: ClassifyRecordlessHere, and a `consumed` or `retired` answer about an imported
// lineage whose provenance holds (store/provenance.h ReadProvenance) also names its remote:
// `source` and `tip` in details (WithSource), as a fetched-only lineage's terminal answer does. A
// refused mutation moves no tip, so the mutations answer the same. A provenance file that does
// not parse is `corrupted` (details.path), as for every reader of the lineage. What status,
// export-context and the mutations answer for a lineage with no record.
#ifndef GENTLE_STORE_HISTORY_EVIDENCE_H_
#define GENTLE_STORE_HISTORY_EVIDENCE_H_

#include <string>

#include "store/git/repository.h"
#include "store/layout.h"
#include "store/status.h"

namespace gentle::store {

Status ClassifyFromHistory(const git::Repository& repo, const StoreLayout& layout,
                           const std::string& lineage);

Status ClassifyRecordlessHere(const git::Repository& repo, const StoreLayout& layout,
                              const std::string& lineage);

Status AnswerRecordless(const git::Repository& repo, const StoreLayout& layout,
                        const std::string& lineage);

}  // namespace gentle::store

#endif  // GENTLE_STORE_HISTORY_EVIDENCE_H_
