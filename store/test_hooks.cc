#include "store/test_hooks.h"

#include "store/fault_point.h"

namespace gentle::store {
namespace {

TestHooks installed_hooks;

}  // namespace

void InstallTestHooks(const TestHooks& hooks) { installed_hooks = hooks; }

void FaultPoint(std::string_view name) {
  if (installed_hooks.fault_point != nullptr) installed_hooks.fault_point(name);
}

std::optional<std::string> FixedTime() {
  if (installed_hooks.fixed_time == nullptr) return std::nullopt;
  return installed_hooks.fixed_time();
}

bool AdmitOversizeCandidates() {
  return installed_hooks.admit_oversize != nullptr && installed_hooks.admit_oversize();
}

uint64_t GitSectionMinBytes(uint64_t fallback) {
  if (installed_hooks.git_section_min_bytes == nullptr) return fallback;
  return installed_hooks.git_section_min_bytes().value_or(fallback);
}

std::chrono::milliseconds ChildDeadline(std::chrono::milliseconds fallback) {
  if (installed_hooks.child_deadline_ms == nullptr) return fallback;
  const std::optional<uint64_t> ms = installed_hooks.child_deadline_ms();
  return ms ? std::chrono::milliseconds(*ms) : fallback;
}

int64_t ForgeRequestTimeoutMs(int64_t fallback) {
  if (installed_hooks.forge_request_timeout_ms == nullptr) return fallback;
  return installed_hooks.forge_request_timeout_ms().value_or(fallback);
}

}  // namespace gentle::store
