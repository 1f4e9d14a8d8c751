#include "store/compact_state.h"

#include <algorithm>
#include <string>
#include <utility>

namespace gentle::store {

const std::vector<std::string_view>& CompactStateMembers() {
  static const std::vector<std::string_view> members = {
      "schema",
      "lineage_id",
      "generation",
      "state",
      "initial_snapshot",
      "current_snapshot",
      "genesis_paths",
      "correction_added_paths",
      "policy_hash",
      "frozen_policy_content",
      "risk_level",
      "selected_lenses",
      "original_changed_lines",
      "correction_budget",
      "correction_budget_policy",
      "lens_results",
      "findings",
      "classifications",
      "outcomes",
      "fix_finding_ids",
      "follow_ups",
      "proposed_correction_lines",
      "actual_correction_lines",
      "fix_delta_hash",
      "original_criteria",
      "correction_regression",
      "evidence_hash",
      "invalidation_reason",
      "invalidation_evidence",
      "recovery",
      "correction_attempts",
      "cumulative_correction_lines",
      "result_reopens",
      "reviewer_context_level",
      "capture_phase_revision",
      "capture_phase_epoch",
      "admitted_role_results",
      "targeted_validator_attempts",
      "approved_ack_token",
      "initial_atomic_start",
      "runtime_agent",
  };
  return members;
}

const std::vector<std::string_view>& RetiredOwnMembers() {
  static const std::vector<std::string_view> members = {"created_at", "verdict_history",
                                                        "approved_ack_token_sha256",
                                                        "invalidated_by", "invalidated_at"};
  return members;
}

nlohmann::ordered_json ToCompactState(const nlohmann::ordered_json& state) {
  const auto& order = CompactStateMembers();
  const auto& retired = RetiredOwnMembers();
  // (rank of the member, or of the last known member before it; position) for a stable order.
  std::vector<std::pair<std::pair<size_t, size_t>, std::string>> keys;
  size_t rank = 0, position = 0;
  for (auto it = state.begin(); it != state.end(); ++it, ++position) {
    const std::string& key = it.key();
    if (std::find(retired.begin(), retired.end(), key) != retired.end()) continue;
    auto known = std::find(order.begin(), order.end(), key);
    if (known != order.end()) rank = static_cast<size_t>(known - order.begin());
    keys.push_back({{rank, position}, key});
  }
  std::stable_sort(keys.begin(), keys.end(),
                   [](const auto& a, const auto& b) { return a.first.first < b.first.first; });
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [unused, key] : keys) out[key] = state.at(key);
  return out;
}

}  // namespace gentle::store
