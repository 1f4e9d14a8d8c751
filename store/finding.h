// Finding: one disagreement `review fsck` reports, named by a stable code. FindingCode is the
// vocabulary, one enum with one name table (FindingCodeName); the names are append-only, as
// docs/lifecycle.md lists them. Code compares findings by enum value; the names are only for
// output.
#ifndef GENTLE_STORE_FINDING_H_
#define GENTLE_STORE_FINDING_H_

#include <string>
#include <string_view>

namespace gentle::store {

enum class FindingCode {
  // What the files say (store_scan.h).
  kRecordCorrupted,
  kIncompleteEntry,
  kUnexpectedEntry,
  kInterruptedWrite,
  kTombstoneCorrupted,
  kTombstoneLiveLineage,
  kQuarantineCorrupted,
  kQuarantinePrepared,
  kResetInterrupted,
  // Whether index.sqlite is usable, and whether it agrees with the files.
  kIndexMissing,
  kIndexCorrupted,
  kIndexInterrupted,
  kIndexPrepared,
  kIndexMissingLineage,
  kIndexMissingTombstone,
  kIndexMissingQuarantine,
  kIndexExtraLineage,
  kIndexExtraTombstone,
  kIndexExtraQuarantine,
  kIndexStaleLineage,
  kIndexStaleTombstone,
  kIndexStaleQuarantine,
  // History refs (their findings keep the older name, `pin_*`) and ref locks.
  kHistoryRefMissing,
  kHistoryRefOrphan,
  kRefLock,
  kHistoryCorrupted,
  kHistoryAhead,
  kHistoryBehind,
  // The seen ledger review-loop.sqlite (loop/seen_fsck.h).
  kLoopCorrupted,
  kLoopNewerSchema,
  kLoopFileMode,
  kLoopInterrupted,
};

// The stable name of a code ("record_corrupted", ...).
std::string_view FindingCodeName(FindingCode code);

struct Finding {
  FindingCode code;
  std::string lineage;  // may be empty
  std::string path;     // may be empty
  std::string message;
};

}  // namespace gentle::store

#endif  // GENTLE_STORE_FINDING_H_
