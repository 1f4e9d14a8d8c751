#include "transaction/recorded_selector.h"

#include <nlohmann/json.hpp>

#include "store/json_member.h"
#include "store/snapshot.h"

namespace gentle::transaction {

Selector RecordedSelector(const store::RecordView& record) {
  Selector selector;
  selector.kind = record.initial_snapshot.kind;
  selector.staged = record.initial_snapshot.projection == store::kProjectionStaged;
  selector.untracked = record.initial_snapshot.intended_untracked;
  selector.ledger_ids = record.current_snapshot.ledger_ids;
  // Without a recorded selector, base-diff and commit-range cannot be recomputed.
  using Type = nlohmann::json::value_t;
  const auto state =
      nlohmann::json::parse(record.compact_state, nullptr, /*allow_exceptions=*/false);
  const nlohmann::json* start = store::TypedMember(state, "initial_atomic_start", Type::object);
  const nlohmann::json* s =
      start != nullptr ? store::TypedMember(*start, "selector", Type::object) : nullptr;
  if (s != nullptr) {
    selector.base = store::StringMember(*s, "base");
    selector.head = store::StringMember(*s, "head");
  }
  return selector;
}

}  // namespace gentle::transaction
