#include "watch/schedule.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include "forge/timestamp.h"
#include "store/test_hooks.h"

namespace gentle::watch {
namespace {

std::optional<int64_t> Seconds(const std::optional<std::string>& text) {
  if (!text || text->empty() || text->size() > 18) return std::nullopt;
  int64_t value = 0;
  const char* end = text->data() + text->size();
  auto [ptr, ec] = std::from_chars(text->data(), end, value);
  if (ec != std::errc() || ptr != end || value < 0) return std::nullopt;
  return value;
}

// The fixed time of the test build's hook, when one is installed.
std::optional<int64_t> FixedSeconds() {
  if (std::optional<std::string> fixed = store::FixedTime()) {
    if (auto instant = forge::ParseTimestamp(*fixed)) return instant->seconds;
  }
  return std::nullopt;
}

class RealClock : public Clock {
 public:
  int64_t Now() override {
    if (std::optional<int64_t> fixed = FixedSeconds()) return *fixed + slept_;
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
  void SleepUntil(int64_t when) override {
    const int64_t now = Now();
    if (when <= now) return;
    if (FixedSeconds()) {
      slept_ += when - now;  // a fixed clock moves by the sleep, at once
      return;
    }
    std::this_thread::sleep_for(std::chrono::seconds(when - now));
  }

 private:
  int64_t slept_ = 0;  // seconds slept on a fixed clock
};

}  // namespace

int64_t PollInterval(int64_t last_event, int64_t now) {
  const int64_t quiet = now - last_event;
  if (quiet >= kDormantAfter) return kDormantInterval;
  if (quiet >= kIdleAfter) return kIdleInterval;
  return kActiveInterval;
}

int64_t Backoff(int64_t failures) {
  int64_t wait = kActiveInterval;
  for (int64_t i = 1; i < failures && wait < kDormantInterval; ++i) wait *= 2;
  return std::min(wait, kDormantInterval);
}

int64_t RateLimitWait(const HttpResponse& answer, int64_t now) {
  int64_t wait = 60;
  if (std::optional<int64_t> retry = Seconds(answer.Header("Retry-After"))) {
    wait = *retry;
  } else if (Seconds(answer.Header("X-RateLimit-Remaining")) == 0) {
    if (std::optional<int64_t> reset = Seconds(answer.Header("X-RateLimit-Reset"))) {
      wait = *reset - now;
    }
  }
  return std::clamp<int64_t>(wait, 1, kMaxRateLimitWait);
}

std::unique_ptr<Clock> SystemClock() { return std::make_unique<RealClock>(); }

}  // namespace gentle::watch
