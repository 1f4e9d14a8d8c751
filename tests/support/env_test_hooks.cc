#include "tests/support/env_test_hooks.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "store/fault_point.h"
#include "store/test_hooks.h"

namespace gentle::testing {
namespace {

void AppendTrace(const char* file, std::string_view name) {
  int fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return;
  std::string line(name);
  line.push_back('\n');
  [[maybe_unused]] ssize_t n = write(fd, line.data(), line.size());
  close(fd);
}

// Throws the exception GENTLE_FAULT_THROW's KIND names.
[[noreturn]] void Throw(std::string_view kind) {
  if (kind == "json") {
    nlohmann::json number = 1;
    (void)number.get<std::string>();  // throws nlohmann::json::type_error
  }
  if (kind == "other") throw 42;
  throw std::bad_alloc();
}

// GENTLE_FAULT_PAUSE=NAME@DIR: at NAME, says "paused" through the FIFO DIR/paused (the open
// waits for the test to read), then waits until the test writes to and closes DIR/resume.
void Pause(std::string_view spec, std::string_view name) {
  const size_t at = spec.find('@');
  if (at == std::string_view::npos || spec.substr(0, at) != name) return;
  const std::string dir(spec.substr(at + 1));
  int paused = open((dir + "/paused").c_str(), O_WRONLY | O_CLOEXEC);
  if (paused >= 0) {
    [[maybe_unused]] ssize_t n = write(paused, "paused\n", 7);
    close(paused);
  }
  int resume = open((dir + "/resume").c_str(), O_RDONLY | O_CLOEXEC);
  if (resume >= 0) {
    char buffer[64];
    while (read(resume, buffer, sizeof(buffer)) > 0) {
    }
    close(resume);
  }
}

void EnvironmentFaultPoint(std::string_view name) {
  if (const char* spec = std::getenv("GENTLE_FAULT_PAUSE"); spec && *spec) Pause(spec, name);
  if (const char* trace = std::getenv("GENTLE_FAULT_TRACE"); trace && *trace) {
    AppendTrace(trace, name);
  }
  if (const char* target = std::getenv("GENTLE_FAULT_POINT"); target && name == target) {
    _exit(store::kFaultExitCode);
  }
  if (const char* spec = std::getenv("GENTLE_FAULT_THROW"); spec && *spec) {
    std::string_view text(spec);
    std::string_view point = text.substr(0, text.find('@'));
    std::string_view kind = point.size() < text.size() ? text.substr(point.size() + 1) : "";
    if (name == point) Throw(kind);
  }
}

std::optional<std::string> EnvironmentFixedTime() {
  const char* fixed = std::getenv("GENTLE_FIXED_TIME");
  if (fixed == nullptr || *fixed == '\0') return std::nullopt;
  return std::string(fixed);
}

// GENTLE_ADMIT_OVERSIZE=1: start and revise take a candidate over the export budget (a lineage as
// releases before the budget check made it).
bool EnvironmentAdmitOversize() {
  const char* admit = std::getenv("GENTLE_ADMIT_OVERSIZE");
  return admit != nullptr && std::string_view(admit) == "1";
}

// GENTLE_GIT_SECTION_MIN_BYTES=N: a modified file's section is written by the git CLI from N
// bytes on a side (export/git_section.h) instead of from git's big-file threshold.
std::optional<uint64_t> EnvironmentGitSectionMinBytes() {
  const char* bytes = std::getenv("GENTLE_GIT_SECTION_MIN_BYTES");
  if (bytes == nullptr || *bytes == '\0') return std::nullopt;
  return std::strtoull(bytes, nullptr, 10);
}

// GENTLE_CHILD_DEADLINE_MS=N: every child process (store/program_run.h) is killed N ms after it
// started instead of after its own deadline.
std::optional<uint64_t> EnvironmentChildDeadlineMs() {
  const char* ms = std::getenv("GENTLE_CHILD_DEADLINE_MS");
  if (ms == nullptr || *ms == '\0') return std::nullopt;
  return std::strtoull(ms, nullptr, 10);
}

// GENTLE_FORGE_TIMEOUT_MS=N: every forge request gives up after N ms (watch/http_transport.h).
std::optional<int64_t> EnvironmentForgeTimeoutMs() {
  const char* ms = std::getenv("GENTLE_FORGE_TIMEOUT_MS");
  if (ms == nullptr || *ms == '\0') return std::nullopt;
  return std::strtoll(ms, nullptr, 10);
}

}  // namespace

void InstallEnvironmentTestHooks() {
  store::TestHooks hooks;
  hooks.fault_point = EnvironmentFaultPoint;
  hooks.fixed_time = EnvironmentFixedTime;
  hooks.admit_oversize = EnvironmentAdmitOversize;
  hooks.git_section_min_bytes = EnvironmentGitSectionMinBytes;
  hooks.child_deadline_ms = EnvironmentChildDeadlineMs;
  hooks.forge_request_timeout_ms = EnvironmentForgeTimeoutMs;
  store::InstallTestHooks(hooks);
}

}  // namespace gentle::testing
