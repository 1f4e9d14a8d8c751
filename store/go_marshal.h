// Serialises a JSON value exactly as Go's json.Marshal (compact) or json.MarshalIndent(v, "", "  ")
// would for the same member order: this is how gentle-ai wrote records, so records this project
// writes re-marshal to the same bytes in gentle-ai. Only integers, strings, booleans, null, arrays
// and objects are supported (records hold no floating-point values).
#ifndef GENTLE_STORE_GO_MARSHAL_H_
#define GENTLE_STORE_GO_MARSHAL_H_

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace gentle::store {

std::string MarshalCompact(const nlohmann::ordered_json& value);
// Two-space indentation; `depth` is the starting indentation level (for nesting inside a file).
std::string MarshalIndent(const nlohmann::ordered_json& value, int depth = 0);

}  // namespace gentle::store

#endif  // GENTLE_STORE_GO_MARSHAL_H_
