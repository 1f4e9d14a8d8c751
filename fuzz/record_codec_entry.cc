// FuzzRecordCodec: see fuzz/entries.h.
#include <nlohmann/json.hpp>

#include "fuzz/entries.h"
#include "store/digests.h"
#include "store/record.h"

namespace gentle::fuzz {

std::string FuzzRecordCodec(std::string_view data) {
  auto parsed = store::ParseRecordFile(data, kFuzzLineage);
  if (!parsed.ok()) {
    if (parsed.status().code() != Code::kCorrupted) {
      return "a refused record is not corrupted: " + std::string(CodeName(parsed.status().code())) +
             ": " + parsed.status().message();
    }
    return "";
  }
  const store::RecordView& view = *parsed;
  if (view.lineage_id != kFuzzLineage) return "parsed a record of another lineage";
  if (store::StateRevision(view.compact_state) != view.revision) {
    return "the revision does not bind the compact state";
  }
  // Re-encoding the verified state (what a mutation does) must give a record that verifies again.
  auto state = nlohmann::ordered_json::parse(view.compact_state, nullptr, false);
  if (state.is_discarded()) return "the verified compact state is not JSON";
  std::string revision;
  const std::string encoded = store::EncodeRecordFile(state, &revision);
  auto again = store::ParseRecordFile(encoded, kFuzzLineage);
  if (!again.ok()) return "the re-encoded record does not parse: " + again.status().message();
  if (again->revision != revision) return "the re-encoded record has another revision";
  if (again->state != view.state || again->round != view.round ||
      again->initial_snapshot.identity != view.initial_snapshot.identity ||
      again->current_snapshot.identity != view.current_snapshot.identity) {
    return "the re-encoded record reads back different fields";
  }
  return "";
}

}  // namespace gentle::fuzz
