// PausedWriter: a gentle-ai command held still at one of its fault points, so that a test can look
// at the store while a live writer is in the middle of its protocol (no sleeps: two FIFOs, the
// GENTLE_FAULT_PAUSE hook of env_test_hooks.h).
//
// The constructor starts `review <args>` on a thread and returns once the command has reached
// `point` (paused() true) or ended without reaching it (paused() false). Resume() lets it go on and
// returns its result; the destructor resumes a command still paused.
#ifndef GENTLE_TESTS_SUPPORT_PAUSED_WRITER_H_
#define GENTLE_TESTS_SUPPORT_PAUSED_WRITER_H_

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {

class PausedWriter {
 public:
  PausedWriter(const LifecycleRepo& repo, const std::vector<std::string>& args,
               const std::string& point);
  ~PausedWriter();
  PausedWriter(const PausedWriter&) = delete;
  PausedWriter& operator=(const PausedWriter&) = delete;

  bool paused() const { return paused_; }
  RunResult Resume();

 private:
  TempDir fifos_;
  std::atomic<bool> paused_{false};
  bool resumed_ = false;
  RunResult result_;
  std::thread thread_;
};

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_PAUSED_WRITER_H_
