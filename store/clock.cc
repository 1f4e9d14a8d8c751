#include "store/clock.h"

#include <time.h>

#include <cstdio>

#include "store/test_hooks.h"

namespace gentle::store {

std::string NowRfc3339() {
  if (std::optional<std::string> fixed = FixedTime()) return *fixed;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  struct tm utc;
  gmtime_r(&ts.tv_sec, &utc);
  char buffer[64];
  size_t n = strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%S", &utc);
  std::string out(buffer, n);
  if (ts.tv_nsec != 0) {
    char fraction[16];
    std::snprintf(fraction, sizeof(fraction), ".%09ld", ts.tv_nsec);
    std::string f(fraction);
    while (f.back() == '0') f.pop_back();
    out += f;
  }
  return out + "Z";
}

}  // namespace gentle::store
