#include "cli/progress.h"

#include <unistd.h>

#include <cerrno>

#include "cli/terminal.h"

namespace gentle::cli {
namespace {

constexpr std::chrono::milliseconds kRedrawInterval{100};

// All of `text` on stderr, unbuffered (a progress line is never worth failing a command over).
void WriteStderr(const std::string& text) {
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(2, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    written += static_cast<size_t>(n);
  }
}

}  // namespace

ProgressLine::ProgressLine(std::string_view verb, bool json)
    : ProgressLine(verb, Active{!json && CapableTerminal(2)}) {}

ProgressLine::ProgressLine(std::string_view verb, Active active)
    : verb_(verb), active_(active.value) {}

ProgressLine::~ProgressLine() { Finish(); }

void ProgressLine::Step(std::string_view what, size_t done, size_t total) {
  const bool new_phase = what != what_;
  if (new_phase) what_ = what;
  done_ = done;
  total_ = total;
  pending_ = true;
  const auto now = std::chrono::steady_clock::now();
  if (new_phase || (total > 0 && done >= total) || now - last_draw_ >= kRedrawInterval) {
    last_draw_ = now;
    Draw();
  }
}

void ProgressLine::Finish() {
  if (!active_) return;
  if (pending_) Draw();
  if (shown_) WriteStderr("\r\033[K");
  shown_ = false;
}

void ProgressLine::Draw() {
  std::string line = "\r" + verb_ + ": " + std::to_string(done_);
  if (total_ > 0) line += "/" + std::to_string(total_);
  line.append(" ").append(what_).append("\033[K");
  WriteStderr(line);
  pending_ = false;
  shown_ = true;
}

}  // namespace gentle::cli
