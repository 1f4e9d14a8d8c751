// TimeOrderKey: a bytewise-sortable key for an RFC 3339 timestamp.
//
// RFC 3339 text does not sort bytewise in time order: Go's RFC3339Nano drops trailing fractional
// zeros ("…:05Z" sorts after "…:05.5Z") and offsets other than Z shift the instant. The key is the
// instant in UTC with exactly nine fractional digits, "YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ", so two keys
// compare bytewise exactly as their instants compare. Text that is not RFC 3339 gets "~" + text,
// which sorts after every valid key and keeps a deterministic order among malformed values.
#ifndef GENTLE_STORE_TIME_ORDER_H_
#define GENTLE_STORE_TIME_ORDER_H_

#include <string>
#include <string_view>

namespace gentle::store {

std::string TimeOrderKey(std::string_view rfc3339);

}  // namespace gentle::store

#endif  // GENTLE_STORE_TIME_ORDER_H_
