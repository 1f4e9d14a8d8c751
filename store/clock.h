// The wall-clock time as RFC 3339 UTC text ("2026-11-30T01:30:05.123456789Z", trailing zeros of the
// fraction dropped, as Go's RFC3339Nano writes it), or the fixed time a test build installed
// (store/test_hooks.h).
#ifndef GENTLE_STORE_CLOCK_H_
#define GENTLE_STORE_CLOCK_H_

#include <string>

namespace gentle::store {

std::string NowRfc3339();

}  // namespace gentle::store

#endif  // GENTLE_STORE_CLOCK_H_
