#include "store/time_order.h"

#include <chrono>
#include <cstdio>
#include <optional>

namespace gentle::store {
namespace {

// Parses `n` decimal digits at `pos`; nullopt if any is not a digit.
std::optional<int> Digits(std::string_view s, size_t pos, size_t n) {
  if (pos + n > s.size()) return std::nullopt;
  int value = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    value = value * 10 + (s[i] - '0');
  }
  return value;
}

bool At(std::string_view s, size_t pos, char c) { return pos < s.size() && s[pos] == c; }

std::optional<std::string> Parse(std::string_view s) {
  using namespace std::chrono;
  auto year = Digits(s, 0, 4), month = Digits(s, 5, 2), day = Digits(s, 8, 2);
  auto hour = Digits(s, 11, 2), minute = Digits(s, 14, 2), second = Digits(s, 17, 2);
  if (!year || !month || !day || !hour || !minute || !second) return std::nullopt;
  if (!At(s, 4, '-') || !At(s, 7, '-') || !(At(s, 10, 'T') || At(s, 10, 't')) || !At(s, 13, ':') ||
      !At(s, 16, ':')) {
    return std::nullopt;
  }
  year_month_day date{std::chrono::year(*year), std::chrono::month(static_cast<unsigned>(*month)),
                      std::chrono::day(static_cast<unsigned>(*day))};
  if (!date.ok() || *hour > 23 || *minute > 59 || *second > 60) return std::nullopt;

  size_t pos = 19;
  int64_t nanos = 0;
  if (At(s, pos, '.')) {
    ++pos;
    size_t digits = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (digits == 9) return std::nullopt;
      nanos = nanos * 10 + (s[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0) return std::nullopt;
    for (; digits < 9; ++digits) nanos *= 10;
  }
  int offset_minutes = 0;
  if (At(s, pos, 'Z') || At(s, pos, 'z')) {
    ++pos;
  } else if (At(s, pos, '+') || At(s, pos, '-')) {
    auto oh = Digits(s, pos + 1, 2), om = Digits(s, pos + 4, 2);
    if (!oh || !om || !At(s, pos + 3, ':') || *oh > 23 || *om > 59) return std::nullopt;
    offset_minutes = (*oh * 60 + *om) * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;

  // A leap second (:60) is kept as :60 of the same minute: it still sorts after :59.
  sys_seconds instant =
      sys_days(date) + hours(*hour) + minutes(*minute) + seconds(*second) - minutes(offset_minutes);
  int leap = *second == 60 ? 1 : 0;
  instant -= seconds(leap);
  sys_days utc_day = floor<days>(instant);
  year_month_day utc_date(utc_day);
  hh_mm_ss<seconds> tod(instant - utc_day);
  if (static_cast<int>(utc_date.year()) < 0 || static_cast<int>(utc_date.year()) > 9999) {
    return std::nullopt;
  }
  char out[64];
  std::snprintf(out, sizeof(out), "%04d-%02u-%02uT%02ld:%02ld:%02ld.%09lldZ",
                static_cast<int>(utc_date.year()), static_cast<unsigned>(utc_date.month()),
                static_cast<unsigned>(utc_date.day()), static_cast<long>(tod.hours().count()),
                static_cast<long>(tod.minutes().count()),
                static_cast<long>(tod.seconds().count() + leap), static_cast<long long>(nanos));
  return std::string(out);
}

}  // namespace

std::string TimeOrderKey(std::string_view rfc3339) {
  std::optional<std::string> key = Parse(rfc3339);
  if (key) return *key;
  // Built by append: `"~" + std::string(...)` trips GCC 12's -Wrestrict false positive at -O3
  // (CMAKE_BUILD_TYPE=Release), which -Werror turns into a build failure.
  std::string out;
  out.reserve(rfc3339.size() + 1);
  out += '~';
  out.append(rfc3339);
  return out;
}

}  // namespace gentle::store
