#include "store/finding.h"

#include "store/name_table.h"

namespace gentle::store {

namespace {
constexpr NameTable kFindingCodeNames = MakeNameTable<FindingCode>({
    {FindingCode::kRecordCorrupted, "record_corrupted"},
    {FindingCode::kIncompleteEntry, "incomplete_entry"},
    {FindingCode::kUnexpectedEntry, "unexpected_entry"},
    {FindingCode::kInterruptedWrite, "interrupted_write"},
    {FindingCode::kTombstoneCorrupted, "tombstone_corrupted"},
    {FindingCode::kTombstoneLiveLineage, "tombstone_live_lineage"},
    {FindingCode::kQuarantineCorrupted, "quarantine_corrupted"},
    {FindingCode::kQuarantinePrepared, "quarantine_prepared"},
    {FindingCode::kResetInterrupted, "reset_interrupted"},
    {FindingCode::kIndexMissing, "index_missing"},
    {FindingCode::kIndexCorrupted, "index_corrupted"},
    {FindingCode::kIndexInterrupted, "index_interrupted"},
    {FindingCode::kIndexPrepared, "index_prepared"},
    {FindingCode::kIndexMissingLineage, "index_missing_lineage"},
    {FindingCode::kIndexMissingTombstone, "index_missing_tombstone"},
    {FindingCode::kIndexMissingQuarantine, "index_missing_quarantine"},
    {FindingCode::kIndexExtraLineage, "index_extra_lineage"},
    {FindingCode::kIndexExtraTombstone, "index_extra_tombstone"},
    {FindingCode::kIndexExtraQuarantine, "index_extra_quarantine"},
    {FindingCode::kIndexStaleLineage, "index_stale_lineage"},
    {FindingCode::kIndexStaleTombstone, "index_stale_tombstone"},
    {FindingCode::kIndexStaleQuarantine, "index_stale_quarantine"},
    {FindingCode::kHistoryRefMissing, "pin_missing"},
    {FindingCode::kHistoryRefOrphan, "pin_orphan"},
    {FindingCode::kRefLock, "ref_lock"},
    {FindingCode::kHistoryCorrupted, "history_corrupted"},
    {FindingCode::kHistoryAhead, "history_ahead"},
    {FindingCode::kHistoryBehind, "history_behind"},
    {FindingCode::kLoopCorrupted, "loop_corrupted"},
    {FindingCode::kLoopNewerSchema, "loop_newer_schema"},
    {FindingCode::kLoopFileMode, "loop_file_mode"},
    {FindingCode::kLoopInterrupted, "loop_interrupted"},
});
}  // namespace

std::string_view FindingCodeName(FindingCode code) { return kFindingCodeNames.Name(code); }

}  // namespace gentle::store
