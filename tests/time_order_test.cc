#include "store/time_order.h"

#include <catch2/catch.hpp>

namespace gentle::store {

TEST_CASE("TimeOrderKey pads fractions and converts offsets to UTC") {
  CHECK(TimeOrderKey("2026-01-02T03:04:05Z") == "2026-01-02T03:04:05.000000000Z");
  CHECK(TimeOrderKey("2026-01-02T03:04:05.5Z") == "2026-01-02T03:04:05.500000000Z");
  CHECK(TimeOrderKey("2026-01-02T03:04:05.123456789Z") == "2026-01-02T03:04:05.123456789Z");
  CHECK(TimeOrderKey("2026-01-01T01:00:00+02:00") == "2025-12-31T23:00:00.000000000Z");
  CHECK(TimeOrderKey("2026-12-31T23:30:00-01:00") == "2027-01-01T00:30:00.000000000Z");
  CHECK(TimeOrderKey("2024-02-29t12:00:00z") == "2024-02-29T12:00:00.000000000Z");
}

TEST_CASE("TimeOrderKey orders instants bytewise - malformed text last") {
  CHECK(TimeOrderKey("2026-01-01T00:00:05Z") < TimeOrderKey("2026-01-01T00:00:05.5Z"));
  CHECK(TimeOrderKey("2026-01-01T00:00:05.5Z") < TimeOrderKey("2026-01-01T00:00:06Z"));
  CHECK(TimeOrderKey("2026-01-01T00:00:59Z") < TimeOrderKey("2026-01-01T00:00:60Z"));
  CHECK(TimeOrderKey("2026-01-01T00:00:60Z") < TimeOrderKey("2026-01-01T00:01:00Z"));
  for (const char* bad :
       {"", "yesterday", "2026-02-30T00:00:00Z", "2026-01-01T00:00:00", "2026-01-01T00:00:00.Z",
        "2026-01-01T00:00:00.1234567891Z", "2026-01-01T24:00:00Z", "2026-01-01T00:00:00+0200"}) {
    INFO(bad);
    CHECK(TimeOrderKey(bad) == "~" + std::string(bad));
    CHECK(TimeOrderKey("9999-12-31T23:59:59.999999999Z") < TimeOrderKey(bad));
  }
}

}  // namespace gentle::store
