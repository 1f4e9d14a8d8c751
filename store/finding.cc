#include "store/finding.h"

namespace gentle::store {

std::string_view FindingCodeName(FindingCode code) {
  switch (code) {
    case FindingCode::kRecordCorrupted:
      return "record_corrupted";
    case FindingCode::kIncompleteEntry:
      return "incomplete_entry";
    case FindingCode::kUnexpectedEntry:
      return "unexpected_entry";
    case FindingCode::kInterruptedWrite:
      return "interrupted_write";
    case FindingCode::kTombstoneCorrupted:
      return "tombstone_corrupted";
    case FindingCode::kTombstoneLiveLineage:
      return "tombstone_live_lineage";
    case FindingCode::kQuarantineCorrupted:
      return "quarantine_corrupted";
    case FindingCode::kQuarantinePrepared:
      return "quarantine_prepared";
    case FindingCode::kResetInterrupted:
      return "reset_interrupted";
    case FindingCode::kIndexMissing:
      return "index_missing";
    case FindingCode::kIndexCorrupted:
      return "index_corrupted";
    case FindingCode::kIndexInterrupted:
      return "index_interrupted";
    case FindingCode::kIndexPrepared:
      return "index_prepared";
    case FindingCode::kIndexMissingLineage:
      return "index_missing_lineage";
    case FindingCode::kIndexMissingTombstone:
      return "index_missing_tombstone";
    case FindingCode::kIndexMissingQuarantine:
      return "index_missing_quarantine";
    case FindingCode::kIndexExtraLineage:
      return "index_extra_lineage";
    case FindingCode::kIndexExtraTombstone:
      return "index_extra_tombstone";
    case FindingCode::kIndexExtraQuarantine:
      return "index_extra_quarantine";
    case FindingCode::kIndexStaleLineage:
      return "index_stale_lineage";
    case FindingCode::kIndexStaleTombstone:
      return "index_stale_tombstone";
    case FindingCode::kIndexStaleQuarantine:
      return "index_stale_quarantine";
    case FindingCode::kHistoryRefMissing:
      return "pin_missing";
    case FindingCode::kHistoryRefOrphan:
      return "pin_orphan";
    case FindingCode::kRefLock:
      return "ref_lock";
    case FindingCode::kHistoryCorrupted:
      return "history_corrupted";
    case FindingCode::kHistoryAhead:
      return "history_ahead";
    case FindingCode::kHistoryBehind:
      return "history_behind";
    case FindingCode::kLoopCorrupted:
      return "loop_corrupted";
    case FindingCode::kLoopNewerSchema:
      return "loop_newer_schema";
    case FindingCode::kLoopFileMode:
      return "loop_file_mode";
    case FindingCode::kLoopInterrupted:
      return "loop_interrupted";
  }
  return "unexpected_entry";  // unreachable: the switch names every enumerator
}

}  // namespace gentle::store
