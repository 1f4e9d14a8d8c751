// Rendering shared by every command: the error envelope of docs/design.md (JSON on stdout with
// --json, one `gentle-ai: <code>: <message>` line on stderr otherwise) and JSON output helpers.
#ifndef GENTLE_CLI_RENDER_H_
#define GENTLE_CLI_RENDER_H_

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "store/status.h"

namespace gentle::cli {

// Prints the failure and returns its exit code.
int ReportError(const Status& status, bool json);

// `value` as a JSON string, or null when it is empty.
nlohmann::ordered_json NullIfEmpty(const std::string& value);

// Prints a JSON document (compact, one line) on stdout and returns 0.
int PrintJson(const nlohmann::ordered_json& document);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_RENDER_H_
