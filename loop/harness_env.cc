#include "loop/harness_env.h"

#include <cstdlib>

#include "store/file_io.h"

namespace gentle::loop {

namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

const char* NonEmpty(const char* value) {
  return value != nullptr && *value != '\0' ? value : nullptr;
}

}  // namespace

std::optional<std::string> SessionFromEnvironment() {
  const char* id = NonEmpty(std::getenv("CLAUDE_CODE_SESSION_ID"));
  if (id == nullptr) id = NonEmpty(std::getenv("PI_SESSION_ID"));
  if (id == nullptr) return std::nullopt;
  return std::string(id).substr(0, 8);
}

std::optional<std::string> EnvFileValue(std::string_view text, std::string_view key) {
  std::optional<std::string> found;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = Trim(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (line.empty() || line.front() == '#') continue;
    if (line.substr(0, 7) == "export " || line.substr(0, 7) == "export\t") {
      line = Trim(line.substr(7));
    }
    const size_t equals = line.find('=');
    if (equals == std::string_view::npos || Trim(line.substr(0, equals)) != key) continue;
    std::string_view value = Trim(line.substr(equals + 1));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
        value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    found = std::string(value);
  }
  return found;
}

std::string EnvOrEnvFile(const char* key, const char* home) {
  if (const char* value = NonEmpty(std::getenv(key))) return value;
  if (home == nullptr) home = NonEmpty(std::getenv("HOME"));
  if (home == nullptr) return "";
  // ReadFileLimited: O_NOFOLLOW and O_NONBLOCK, a regular file only, refused beyond the bound.
  auto text = store::ReadFileLimited(std::string(home) + "/.env.claude", kMaxEnvFileBytes);
  if (!text.ok()) return "";
  return EnvFileValue(*text, key).value_or("");
}

}  // namespace gentle::loop
