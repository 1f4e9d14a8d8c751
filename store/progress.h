// Progress: an observer of long store-wide work (fsck, index rebuild, repair, import's history
// verification), told how far the work is so that the command line can show it on a terminal
// (cli/progress_line.h). The library only reports; whether and how progress is shown is the
// caller's business, and nothing a Progress does can change the work's result.
//
// Every function that takes a `Progress*` accepts null: no observer, and no cost beyond a pointer
// test per step. Steps of one phase share `what` and report `done` rising to `total`; a new
// `what` starts a new phase. `total` is 0 when it is not known in advance.
#ifndef GENTLE_STORE_PROGRESS_H_
#define GENTLE_STORE_PROGRESS_H_

#include <cstddef>
#include <string_view>

namespace gentle::store {

class Progress {
 public:
  virtual ~Progress() = default;
  // `done` of `total` units of `what` (e.g. "histories checked"), `total` 0 when unknown.
  virtual void Step(std::string_view what, size_t done, size_t total) = 0;
};

// progress->Step(...) when there is an observer.
inline void ReportProgress(Progress* progress, std::string_view what, size_t done, size_t total) {
  if (progress != nullptr) progress->Step(what, done, total);
}

// One phase over `total` items known in advance: Next() before each item reports 0, 1, ...;
// Done() after the last reports `total`. Nothing is reported for no items or no observer.
class ProgressPhase {
 public:
  ProgressPhase(Progress* progress, std::string_view what, size_t total)
      : progress_(total > 0 ? progress : nullptr), what_(what), total_(total) {}
  void Next() { ReportProgress(progress_, what_, done_++, total_); }
  void Done() { ReportProgress(progress_, what_, total_, total_); }

 private:
  Progress* const progress_;
  const std::string_view what_;
  const size_t total_;
  size_t done_ = 0;
};

}  // namespace gentle::store

#endif  // GENTLE_STORE_PROGRESS_H_
