// Rendering shared by every command: the error envelope of docs/design.md (JSON on stdout with
// --json, one `gentle-ai: <code>: <message>` line on stderr otherwise, the message through
// store::VisibleLine), human output through store::VisibleText, and JSON output helpers.
#ifndef GENTLE_CLI_RENDER_H_
#define GENTLE_CLI_RENDER_H_

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "store/status.h"

namespace gentle::cli {

// Prints the failure and returns its exit code.
int ReportError(const Status& status, bool json);

// `value` as a JSON string, or null when it is empty.
nlohmann::ordered_json NullIfEmpty(const std::string& value);

// Prints human output on stdout, every value in it through store::VisibleText (control bytes,
// bidirectional controls and invalid UTF-8 of recorded or fetched text shown escaped).
void PrintHuman(std::string_view text);

// Prints a JSON document (compact, one line) on stdout and returns 0.
int PrintJson(const nlohmann::ordered_json& document);
// Writes `bytes` on stdout and flushes them; false when stdout refuses them (a full disk, a closed
// descriptor). PrintHuman and PrintJson write through it.
bool WriteStdout(std::string_view bytes);
// The errno of the first write WriteStdout saw refused; 0 when none was or it had no errno.
int StdoutErrno();

}  // namespace gentle::cli

#endif  // GENTLE_CLI_RENDER_H_
