// When the watcher asks a forge again (docs/watch.md "Schedule"), in whole seconds of one Clock.
//   PollInterval: 30 s while a PR is active, 5 min once an hour passed without an event, 15 min
//                 once a day passed; an event (a hint) resets it.
//   Backoff:      after `failures` consecutive failures of a forge host (unreachable, 5xx): 30 s
//                 doubling per failure, at most 15 min.
//   RateLimitWait: a 403/429 answer's Retry-After (seconds) or, with X-RateLimit-Remaining 0,
//                 X-RateLimit-Reset (epoch seconds) minus now; else 60 s; clamped to 1 s..1 h.
// Clock: the time source and the sleeper, injectable so tests run the schedule without sleeping.
// SystemClock takes the test build's fixed time (store/test_hooks.h) when one is installed; that
// clock then moves only by what the process sleeps, without sleeping, so a daemon run of the test
// build goes through its cycles at once (bench/watch-cycle.sh runs 1,000 that way).
#ifndef GENTLE_WATCH_SCHEDULE_H_
#define GENTLE_WATCH_SCHEDULE_H_

#include <cstdint>
#include <memory>

#include "watch/http_response.h"

namespace gentle::watch {

inline constexpr int64_t kActiveInterval = 30;
inline constexpr int64_t kIdleInterval = 5 * 60;
inline constexpr int64_t kDormantInterval = 15 * 60;
inline constexpr int64_t kIdleAfter = 60 * 60;
inline constexpr int64_t kDormantAfter = 24 * 60 * 60;
inline constexpr int64_t kMaxRateLimitWait = 60 * 60;

int64_t PollInterval(int64_t last_event, int64_t now);
int64_t Backoff(int64_t failures);
int64_t RateLimitWait(const HttpResponse& answer, int64_t now);

class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t Now() = 0;  // seconds since the epoch
  virtual void SleepUntil(int64_t when) = 0;
};

std::unique_ptr<Clock> SystemClock();

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_SCHEDULE_H_
