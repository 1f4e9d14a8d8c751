#include "transaction/recorded_selector.h"

#include <nlohmann/json.hpp>

#include "store/json_member.h"

namespace gentle::transaction {

Selector RecordedSelector(const store::RecordView& record) {
  Selector selector;
  selector.kind = record.initial_snapshot.kind;
  selector.staged = record.initial_snapshot.projection == "staged";
  selector.untracked = record.initial_snapshot.intended_untracked;
  selector.ledger_ids = record.current_snapshot.ledger_ids;
  try {
    auto state = nlohmann::json::parse(record.compact_state);
    const auto& s = state.at("initial_atomic_start").at("selector");
    selector.base = store::StringMember(s, "base");
    selector.head = store::StringMember(s, "head");
  } catch (const std::exception&) {
    // No recorded selector: base-diff and commit-range cannot be recomputed.
  }
  return selector;
}

}  // namespace gentle::transaction
