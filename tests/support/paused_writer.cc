#include "tests/support/paused_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdexcept>

namespace gentle::testing {
namespace {

std::string ReadToEnd(const std::string& fifo) {
  std::string out;
  int fd = open(fifo.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  char buffer[64];
  ssize_t n = 0;
  while ((n = read(fd, buffer, sizeof(buffer))) > 0) out.append(buffer, static_cast<size_t>(n));
  close(fd);
  return out;
}

void WriteAll(const std::string& fifo, const std::string& text) {
  int fd = open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return;
  [[maybe_unused]] ssize_t n = write(fd, text.data(), text.size());
  close(fd);
}

}  // namespace

PausedWriter::PausedWriter(const LifecycleRepo& repo, const std::vector<std::string>& args,
                           const std::string& point) {
  const std::string paused = fifos_.path() + "/paused";
  const std::string resume = fifos_.path() + "/resume";
  if (mkfifo(paused.c_str(), 0600) != 0 || mkfifo(resume.c_str(), 0600) != 0) {
    throw std::runtime_error("mkfifo in " + fifos_.path());
  }
  thread_ = std::thread([this, &repo, args, point, paused] {
    result_ = repo.Review(args, {{"GENTLE_FAULT_PAUSE", point + "@" + fifos_.path()}});
    // A command that ended without pausing: the constructor is still waiting to read.
    if (!paused_) WriteAll(paused, "exited\n");
  });
  paused_ = ReadToEnd(paused) == "paused\n";
  if (!paused_) {
    thread_.join();
    resumed_ = true;
  }
}

RunResult PausedWriter::Resume() {
  if (!resumed_) {
    WriteAll(fifos_.path() + "/resume", "go\n");
    thread_.join();
    resumed_ = true;
  }
  return result_;
}

PausedWriter::~PausedWriter() { Resume(); }

}  // namespace gentle::testing
