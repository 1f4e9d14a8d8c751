// The lineage record codec (docs/format.md).
//
// File: {"schema":"gentle-ai.review-state-record/v2","revision":"sha256:<hex>","state":{...}},
// two-space indentation, one trailing newline. The revision is verified from the raw bytes of the
// `state` member (whitespace outside strings removed), never by re-serialising a struct, so records
// carrying fields this code does not know (e.g. written by the Go gentle-ai) still verify and read.
//
// ParseRecordFile is strict about what it relies on (schema, revision, lineage, generation, state,
// both snapshots and their digests) and tolerant of everything else. Any failure is `corrupted`.
#ifndef GENTLE_STORE_RECORD_H_
#define GENTLE_STORE_RECORD_H_

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "store/layout.h"
#include "store/review_state.h"
#include "store/snapshot.h"
#include "store/status.h"

namespace gentle::store {

inline constexpr std::string_view kRecordSchema = "gentle-ai.review-state-record/v2";
inline constexpr std::string_view kStateSchema = "gentle-ai.review-state/v2";
inline constexpr size_t kMaxRecordBytes = 32u << 20;
// No value in a record sits inside more than this many arrays or objects.
inline constexpr size_t kMaxRecordDepth = 64;

struct RecordView {
  std::string revision;
  std::string lineage_id;
  int64_t round = 0;
  StateName state;  // as written (a newer gentle-ai's state reads too: store/review_state.h)
  Snapshot initial_snapshot;
  Snapshot current_snapshot;
  std::string created_at;          // empty when the writer did not record it
  std::string worktree_identity;   // initial_atomic_start.worktree_identity; empty when absent
  bool historical_compat = false;  // carries retired fields: readable, never mutable
  std::string compact_state;       // the verified state bytes, for mutations to build upon
};

Result<RecordView> ParseRecordFile(std::string_view bytes, std::string_view expected_lineage);

// ParseRecordFile through a JSON document only. ParseRecordFile reads a record in the shape every
// writer produces without one (store/record_events.h) and leaves every other text to this; the two
// answer the same for every text (tests/record_events_test.cc compares them).
Result<RecordView> ParseRecordFileThroughDom(std::string_view bytes,
                                             std::string_view expected_lineage);

// Reads and parses <v2>/<lineage>/review-state.json. kNotFound when the file is absent.
Result<RecordView> LoadRecord(const StoreLayout& layout, const std::string& lineage);

// The file bytes for `state`, and its revision.
std::string EncodeRecordFile(const nlohmann::ordered_json& state, std::string* revision);

// Snapshot <-> JSON in gentle-ai's field order.
void SnapshotToJson(const Snapshot& snapshot, nlohmann::ordered_json* out);

}  // namespace gentle::store

#endif  // GENTLE_STORE_RECORD_H_
