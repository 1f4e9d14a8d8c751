// ReadRecordEvents: the members of a lineage record file (docs/format.md) that ParseRecordFile
// relies on, read in one pass of store/json_event_reader.h's events without building a JSON
// document.
//
// Contract: a value only when `bytes` is a record in the shape every writer produces: one JSON
// object of exactly `schema`, `revision` (strings) and `state` (an object); every object free of
// duplicate keys; no value nested deeper than kMaxRecordDepth; in `state`, `schema`, `lineage_id`
// and `state` strings, `generation` a non-negative integer, both snapshots objects with every
// member ParseRecordFile reads present and of its type (the string arrays as arrays, never null).
// Anything else (including every text the DOM path would refuse) gives std::nullopt, and the
// caller parses the same bytes through the DOM, whose answer is then the answer: this reader can
// make a parse faster, never change what it returns. No digest or value check is made here; the
// snapshots are returned as written (projection not normalised).
#ifndef GENTLE_STORE_RECORD_EVENTS_H_
#define GENTLE_STORE_RECORD_EVENTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "store/snapshot.h"

namespace gentle::store {

struct RecordFields {
  std::string schema;    // the envelope's
  std::string revision;  // the envelope's
  std::string state_schema;
  std::string lineage_id;
  uint64_t generation = 0;
  std::string state;
  Snapshot initial_snapshot;       // as written
  Snapshot current_snapshot;       // as written
  std::string created_at;          // "" when absent or not a string
  std::string worktree_identity;   // initial_atomic_start.worktree_identity; "" as above
  bool historical_compat = false;  // a retired member non-empty, or recovery.review_start
};

std::optional<RecordFields> ReadRecordEvents(std::string_view bytes);

}  // namespace gentle::store

#endif  // GENTLE_STORE_RECORD_EVENTS_H_
