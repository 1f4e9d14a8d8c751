// FaultPoint: a named durable step of a mutation ("start:pinned", "burn:tombstone-written", ...).
// It does nothing unless a test build installed a fault hook (store/test_hooks.h), which can then
// stop the process there, trace the step, or throw, so tests can prove that every step is crash
// safe. The exit code a fault hook uses to stop a process is kFaultExitCode.
#ifndef GENTLE_STORE_FAULT_POINT_H_
#define GENTLE_STORE_FAULT_POINT_H_

#include <string_view>

namespace gentle::store {

inline constexpr int kFaultExitCode = 86;

void FaultPoint(std::string_view name);

}  // namespace gentle::store

#endif  // GENTLE_STORE_FAULT_POINT_H_
