#include "forge/timestamp.h"

namespace gentle::forge {
namespace {

// Reads `width` decimal digits at text[*at], advancing.
std::optional<int> Digits(std::string_view text, size_t* at, size_t width) {
  if (*at + width > text.size()) return std::nullopt;
  int value = 0;
  for (size_t i = 0; i < width; ++i) {
    const char c = text[*at + i];
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  *at += width;
  return value;
}

bool Expect(std::string_view text, size_t* at, char c) {
  if (*at >= text.size() || text[*at] != c) return false;
  ++*at;
  return true;
}

bool IsLeap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int DaysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeap(year) ? 29 : kDays[month - 1];
}

// Days from 1970-01-01 to year-month-day (proleptic Gregorian; H. Hinnant's days_from_civil).
int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

}  // namespace

std::optional<Instant> ParseTimestamp(std::string_view text) {
  size_t at = 0;
  const auto year = Digits(text, &at, 4);
  if (!year || !Expect(text, &at, '-')) return std::nullopt;
  const auto month = Digits(text, &at, 2);
  if (!month || *month < 1 || *month > 12 || !Expect(text, &at, '-')) return std::nullopt;
  const auto day = Digits(text, &at, 2);
  if (!day || *day < 1 || *day > DaysInMonth(*year, *month)) return std::nullopt;
  if (!Expect(text, &at, 'T') && !Expect(text, &at, 't')) return std::nullopt;
  const auto hour = Digits(text, &at, 2);
  if (!hour || *hour > 23 || !Expect(text, &at, ':')) return std::nullopt;
  const auto minute = Digits(text, &at, 2);
  if (!minute || *minute > 59 || !Expect(text, &at, ':')) return std::nullopt;
  const auto second = Digits(text, &at, 2);
  if (!second || *second > 60) return std::nullopt;
  int32_t nanos = 0;
  if (Expect(text, &at, '.')) {
    size_t digits = 0;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
      if (++digits > 9) return std::nullopt;
      nanos = nanos * 10 + (text[at] - '0');
      ++at;
    }
    if (digits == 0) return std::nullopt;
    for (size_t i = digits; i < 9; ++i) nanos *= 10;
  }
  int64_t offset = 0;
  if (Expect(text, &at, 'Z') || Expect(text, &at, 'z')) {
  } else if (at < text.size() && (text[at] == '+' || text[at] == '-')) {
    const int sign = text[at] == '-' ? -1 : 1;
    ++at;
    const auto oh = Digits(text, &at, 2);
    if (!oh || *oh > 23 || !Expect(text, &at, ':')) return std::nullopt;
    const auto om = Digits(text, &at, 2);
    if (!om || *om > 59) return std::nullopt;
    offset = sign * (*oh * 3600 + *om * 60);
  } else {
    return std::nullopt;
  }
  if (at != text.size()) return std::nullopt;
  const int64_t seconds =
      DaysFromCivil(*year, *month, *day) * 86400 + *hour * 3600 + *minute * 60 + *second - offset;
  return Instant{seconds, nanos};
}

}  // namespace gentle::forge
