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
  // (rank of the member, or of the last known member before it; the member) for a stable order.
  // Each member is visited once and appended once: the ordered object's own operator[] and at()
  // search it from the start, which made a record of n unknown members cost n^2.
  using Member = nlohmann::ordered_json::const_iterator;
  std::vector<std::pair<size_t, Member>> members;
  members.reserve(state.size());
  size_t rank = 0;
  for (auto it = state.begin(); it != state.end(); ++it) {
    const std::string& key = it.key();
    if (std::find(retired.begin(), retired.end(), key) != retired.end()) continue;
    auto known = std::find(order.begin(), order.end(), key);
    if (known != order.end()) rank = static_cast<size_t>(known - order.begin());
    members.emplace_back(rank, it);
  }
  std::stable_sort(members.begin(), members.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  // The keys are distinct (they come from one object), so appending keeps the object valid.
  auto& out_members = out.get_ref<nlohmann::ordered_json::object_t&>();
  out_members.reserve(members.size());
  for (const auto& [unused, member] : members) out_members.emplace_back(member.key(), *member);
  return out;
}

}  // namespace gentle::store
