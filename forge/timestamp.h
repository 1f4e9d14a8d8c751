// RFC 3339 timestamps as both forges print them ("2026-08-21T10:00:00Z",
// "2026-08-21T18:00:00.123+08:00"), read into an instant so that comments of different offsets
// sort in time order. Only the order is used; the text is kept verbatim.
//
// Accepted: YYYY-MM-DD, 'T' or 't', hh:mm:ss, an optional '.' and 1 to 9 digits, then 'Z', 'z'
// or +hh:mm / -hh:mm; fields in range (seconds up to 60, a leap second). Anything else: nullopt.
#ifndef GENTLE_FORGE_TIMESTAMP_H_
#define GENTLE_FORGE_TIMESTAMP_H_

#include <compare>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gentle::forge {

struct Instant {
  int64_t seconds = 0;  // since 1970-01-01T00:00:00Z
  int32_t nanos = 0;
  auto operator<=>(const Instant&) const = default;
};

std::optional<Instant> ParseTimestamp(std::string_view text);

}  // namespace gentle::forge

#endif  // GENTLE_FORGE_TIMESTAMP_H_
