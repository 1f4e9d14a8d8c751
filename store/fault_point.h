// Crash-injection hooks for tests. In builds with GENTLE_FAULT_POINTS, FaultPoint("name") kills the
// process with _exit(86) when the environment variable GENTLE_FAULT_POINT equals "name", and
// appends "name\n" to the file named by GENTLE_FAULT_TRACE when set (so a test can enumerate every
// durable step a command passes). In other builds it compiles to nothing.
#ifndef GENTLE_STORE_FAULT_POINT_H_
#define GENTLE_STORE_FAULT_POINT_H_

#include <string_view>

namespace gentle::store {

inline constexpr int kFaultExitCode = 86;

#ifdef GENTLE_FAULT_POINTS
void FaultPoint(std::string_view name);
#else
inline void FaultPoint(std::string_view) {}
#endif

}  // namespace gentle::store

#endif  // GENTLE_STORE_FAULT_POINT_H_
