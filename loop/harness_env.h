// HarnessEnv: what a PR harness's environment says, read as gentle-ai's PR loop says
// (docs/loop.md, "The harness's environment"):
//   - the session id for a comment's marker: the first 8 characters of $CLAUDE_CODE_SESSION_ID,
//     else of $PI_SESSION_ID; none when neither is set and non-empty;
//   - a variable missing from the environment, read from ~/.env.claude: `KEY=VALUE` lines, an
//     optional leading `export `, one pair of matching quotes ('' or "") around the value
//     stripped, blank lines and `#` comments skipped. The file is never executed or expanded
//     (`$X` stays as written): it is read as data, at most kMaxEnvFileBytes, a regular file only
//     (a symlink, FIFO or directory is ignored, never opened for reading or followed).
// Read-only; no I/O but the one bounded file read.
#ifndef GENTLE_LOOP_HARNESS_ENV_H_
#define GENTLE_LOOP_HARNESS_ENV_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gentle::loop {

inline constexpr size_t kMaxEnvFileBytes = 64 * 1024;

// The session id a comment's marker carries when --session is not given.
std::optional<std::string> SessionFromEnvironment();

// The value of `key` in `text`, a ~/.env.claude file's bytes (the last line that sets it wins, as
// a shell's `source` would leave it); nullopt when no line sets it.
std::optional<std::string> EnvFileValue(std::string_view text, std::string_view key);

// $key when set and non-empty; else its value in $HOME/.env.claude (`home` overrides $HOME);
// else "".
std::string EnvOrEnvFile(const char* key, const char* home = nullptr);

}  // namespace gentle::loop

#endif  // GENTLE_LOOP_HARNESS_ENV_H_
