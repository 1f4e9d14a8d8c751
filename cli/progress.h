// ProgressLine: the store::Progress (store/progress.h) of a command run by a person: one line on
// stderr, `<verb>: <done>/<total> <what>` (`<verb>: <done> <what>` when the total is unknown),
// rewritten in place with \r and erased by Finish, so stdout never sees a byte of it.
//
// It is active only when stderr is a capable terminal (cli/terminal.h) and the command is not under
// --json; otherwise get() is null and the work runs with no observer. Redraws are throttled to one
// per 100 ms, but the first step, the first step of each phase and the last step of each phase
// (done == total, or the last one reported before Finish) are always drawn, so what a terminal
// shows does not depend on timing.
#ifndef GENTLE_CLI_PROGRESS_H_
#define GENTLE_CLI_PROGRESS_H_

#include <chrono>
#include <string>
#include <string_view>

#include "store/progress.h"

namespace gentle::cli {

class ProgressLine final : public store::Progress {
 public:
  // Active when `json` is false and stderr is a capable terminal.
  ProgressLine(std::string_view verb, bool json);
  // The same decision already made by the caller.
  struct Active {
    bool value;
  };
  ProgressLine(std::string_view verb, Active active);
  ~ProgressLine() override;
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // This observer when active, else null.
  store::Progress* get() { return active_ ? this : nullptr; }

  void Step(std::string_view what, size_t done, size_t total) override;
  // Draws the last step if it was not drawn, then erases the line. Call it before the command
  // prints anything; idempotent (the destructor calls it too).
  void Finish();

 private:
  void Draw();

  const std::string verb_;
  const bool active_;
  std::string what_;
  size_t done_ = 0, total_ = 0;
  bool pending_ = false;  // a step not drawn yet
  bool shown_ = false;    // a line is on the terminal
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace gentle::cli

#endif  // GENTLE_CLI_PROGRESS_H_
