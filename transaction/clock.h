// The wall-clock time as RFC 3339 UTC text ("2026-11-30T01:30:05.123456789Z", trailing zeros of the
// fraction dropped, as Go's RFC3339Nano writes it), or the fixed time a test build installed
// (store/test_hooks.h).
#ifndef GENTLE_TRANSACTION_CLOCK_H_
#define GENTLE_TRANSACTION_CLOCK_H_

#include <string>

namespace gentle::transaction {

std::string NowRfc3339();

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_CLOCK_H_
