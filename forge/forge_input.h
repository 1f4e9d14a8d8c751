// Reading one input file of `review context import` / `review ledger`: a forge CLI's JSON output
// or a ReviewContext, from a path or "-" (stdin, which a command accepts at most once).
//
// A file above kMaxForgeInputBytes (64 MiB) is `budget_exceeded` (exit 9), refused from its size
// before it is read when it is a regular file, and after reading at most one byte past the limit
// otherwise (a pipe, stdin). A file that cannot be read is `usage` naming the input; text that is
// not valid UTF-8, not JSON, or holds a number out of range is `usage` naming the input and the
// JSON path (forge/forge_json.h). nlohmann's exceptions stop here.
#ifndef GENTLE_FORGE_FORGE_INPUT_H_
#define GENTLE_FORGE_FORGE_INPUT_H_

#include <string>

#include "forge/json_field.h"
#include "store/status.h"

namespace gentle::forge {

// One parsed input and where it came from.
struct ForgePage {
  Source source;
  Json json;
};

// The bytes of `source.file`.
Result<std::string> ReadForgeInput(const Source& source);

// The bytes of `source.file`, parsed as JSON.
Result<Json> ReadForgeJson(const Source& source);

}  // namespace gentle::forge

#endif  // GENTLE_FORGE_FORGE_INPUT_H_
