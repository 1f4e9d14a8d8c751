// ParseForgeJson: the text of one forge input (a forge CLI's JSON output, or a ReviewContext)
// parsed into nlohmann's DOM, every refusal a `usage` Status naming the input and the JSON path
// of the bad value (forge/json_field.h), never an exception:
//   - text that is not valid UTF-8 or not JSON: "<label> (<file>): the top level: ...";
//   - a number no double holds (1e999, -1e999): "<label> (<file>): <path>: a number out of
//     range: 1e999", json_path the member or element that holds it.
#ifndef GENTLE_FORGE_FORGE_JSON_H_
#define GENTLE_FORGE_FORGE_JSON_H_

#include <string_view>

#include "forge/json_field.h"
#include "store/status.h"

namespace gentle::forge {

Result<Json> ParseForgeJson(const Source& source, std::string_view text);

}  // namespace gentle::forge

#endif  // GENTLE_FORGE_FORGE_JSON_H_
