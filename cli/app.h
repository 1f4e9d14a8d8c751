// The gentle-ai command table: parses argv with CLI11, dispatches to one command, renders the
// result (human or --json) and returns the documented exit code. No domain logic lives here. No
// exception escapes Run: one that reaches it is reported as `internal` (exit 1), in the JSON error
// envelope under --json.
#ifndef GENTLE_CLI_APP_H_
#define GENTLE_CLI_APP_H_

namespace gentle::cli {

int Run(int argc, char** argv);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_APP_H_
