// The members of gentle-ai's newest CompactState, in its declaration order
// (gentle-ai's CompactState; docs/format.md, decided): a record this
// project writes holds only these, in this order, because gentle-ai decodes strictly and refuses
// any other member.
//
// ToCompactState rewrites a parsed state for writing: the members earlier builds of this project
// added (created_at, verdict_history, approved_ack_token_sha256, invalidated_by, invalidated_at;
// their information lives in the history ref now) are dropped, and the members are put in
// CompactState order. A member not in the list (one an older gentle-ai version wrote) keeps its
// place after the member that preceded it.
#ifndef GENTLE_STORE_COMPACT_STATE_H_
#define GENTLE_STORE_COMPACT_STATE_H_

#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

namespace gentle::store {

const std::vector<std::string_view>& CompactStateMembers();

// Members earlier builds of this project wrote that gentle-ai has no field for.
const std::vector<std::string_view>& RetiredOwnMembers();

nlohmann::ordered_json ToCompactState(const nlohmann::ordered_json& state);

}  // namespace gentle::store

#endif  // GENTLE_STORE_COMPACT_STATE_H_
