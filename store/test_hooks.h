// TestHooks: the seams a test build installs into the libraries, and nothing else can.
//
// The libraries never read the environment for test purposes. They call FaultPoint() at each
// durable step of a mutation and ask FixedTime() before reading the clock; both do nothing until a
// test build installs hooks. The `gentle-ai` executable (the one `cmake --install` and the demo
// use) installs none, so GENTLE_FAULT_* and GENTLE_FIXED_TIME mean nothing to it. The test build's
// `gentle-ai-test` executable and the in-process test binary install the environment-driven hooks
// of tests/support/env_test_hooks.h.
//
// Thread-safety: install once, before any command runs; calling the hooks is then safe from any
// thread.
#ifndef GENTLE_STORE_TEST_HOOKS_H_
#define GENTLE_STORE_TEST_HOOKS_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gentle::store {

struct TestHooks {
  // Called with the name of each durable step; may end the process or throw.
  void (*fault_point)(std::string_view name) = nullptr;
  // A fixed wall-clock time (RFC 3339 text) to use instead of the clock, or nothing.
  std::optional<std::string> (*fixed_time)() = nullptr;
  // True to let start and revise take a candidate over the export budget, as releases before the
  // budget check did (tests make such lineages to see how the other verbs answer for them).
  bool (*admit_oversize)() = nullptr;
  // A lower size from which a modified file's section is written by the git CLI
  // (export/git_section.h), so tests reach that path with small files; nothing keeps the default.
  std::optional<uint64_t> (*git_section_min_bytes)() = nullptr;
  // A deadline in milliseconds for every child process (store/program_run.h) instead of its own,
  // so tests see a hung child killed without waiting minutes; nothing keeps the defaults.
  std::optional<uint64_t> (*child_deadline_ms)() = nullptr;
  // A shorter whole-request deadline for forge requests (watch/http_transport.h), in
  // milliseconds, so a test of a forge that never answers ends in seconds; nothing keeps 60 s.
  std::optional<int64_t> (*forge_request_timeout_ms)() = nullptr;
};

// Replaces the installed hooks (all null by default).
void InstallTestHooks(const TestHooks& hooks);

// The installed fixed time, if a hook is installed and gives one.
std::optional<std::string> FixedTime();

// Whether an installed hook lets start and revise take an oversize candidate (false without one).
bool AdmitOversizeCandidates();

// The installed hook's size for export/git_section.h, or `fallback` without one.
uint64_t GitSectionMinBytes(uint64_t fallback);

// The installed hook's child deadline, or `fallback` without one.
std::chrono::milliseconds ChildDeadline(std::chrono::milliseconds fallback);
// The installed hook's forge request deadline in milliseconds, or `fallback` without one.
int64_t ForgeRequestTimeoutMs(int64_t fallback);

}  // namespace gentle::store

#endif  // GENTLE_STORE_TEST_HOOKS_H_
