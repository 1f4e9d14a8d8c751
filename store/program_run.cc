#include "store/program_run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

#include "store/test_hooks.h"

extern char** environ;

namespace gentle::store {
namespace {

using Clock = std::chrono::steady_clock;

void CloseFd(int* fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

// Whether this process is the foreground process group of its controlling terminal (a person
// runs it at a terminal and may be asked something there).
bool InTerminalForeground() {
  const int tty = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);
  if (tty < 0) return false;
  const pid_t foreground = tcgetpgrp(tty);
  close(tty);
  return foreground == getpgrp();
}

// A descriptor that becomes readable when `pid` ends, or -1 where the kernel has none.
int ExitFd(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
#else
  return -1;
#endif
}

std::string DeadlineText(std::chrono::milliseconds deadline) {
  if (deadline.count() % 1000 == 0) return std::to_string(deadline.count() / 1000) + " s";
  return std::to_string(deadline.count()) + " ms";
}

// The pipes of one child and what was read from them.
struct Pipes {
  int fds[3] = {-1, -1, -1};  // the child's stdin (ours to write), stdout, stderr
  ~Pipes() {
    for (int& fd : fds) CloseFd(&fd);
  }
  bool open() const { return fds[0] >= 0 || fds[1] >= 0 || fds[2] >= 0; }
};

enum class Ending { kDone, kDeadline, kPastCapture };

// Feeds `input` and reads both outputs until the pipes are closed and the child has ended (seen
// through `exit_fd`; without one, the pipes alone), the deadline passes, or stdout passes the
// capture with stop_past_capture.
Ending Exchange(const ProgramRequest& request, Clock::time_point end, int exit_fd, Pipes* pipes,
                ProgramOutput* output) {
  size_t written = 0;
  bool ended = exit_fd < 0;
  char buffer[65536];
  while (pipes->open() || !ended) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now());
    if (left.count() <= 0) return Ending::kDeadline;
    pollfd polls[4];
    int which[4];
    nfds_t count = 0;
    for (int i = 0; i < 3; ++i) {
      if (pipes->fds[i] < 0) continue;
      polls[count] = {pipes->fds[i], static_cast<short>(i == 0 ? POLLOUT : POLLIN), 0};
      which[count++] = i;
    }
    if (!ended) {
      polls[count] = {exit_fd, POLLIN, 0};
      which[count++] = 3;
    }
    const int timeout = static_cast<int>(std::min<int64_t>(left.count(), 60000) + 1);
    if (poll(polls, count, timeout) < 0) {
      if (errno == EINTR) continue;
      return Ending::kDone;
    }
    for (nfds_t k = 0; k < count; ++k) {
      if (polls[k].revents == 0) continue;
      const int i = which[k];
      if (i == 3) {
        ended = true;
        continue;
      }
      int& fd = pipes->fds[i];
      if (i == 0) {
        const ssize_t n = write(fd, request.input.data() + written, request.input.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
          CloseFd(&fd);
          continue;
        }
        written += static_cast<size_t>(n);
        if (written == request.input.size()) CloseFd(&fd);
        continue;
      }
      const ssize_t n = read(fd, buffer, sizeof(buffer));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        CloseFd(&fd);
        continue;
      }
      std::string& sink = i == 1 ? output->out : output->err;
      if (i == 1 && request.stop_past_capture &&
          sink.size() + static_cast<size_t>(n) > request.max_capture) {
        return Ending::kPastCapture;
      }
      const size_t room = request.max_capture - std::min(request.max_capture, sink.size());
      sink.append(buffer, std::min(room, static_cast<size_t>(n)));
    }
  }
  return Ending::kDone;
}

}  // namespace

Result<ProgramOutput> RunProgram(const ProgramRequest& request) {
  if (request.argv.empty()) return Status(Code::kInternal, "RunProgram needs a program");
  const std::string name = request.name.empty() ? request.argv[0] : request.name;
  std::vector<std::string> copies = request.argv;
  std::vector<char*> args;
  for (auto& a : copies) args.push_back(a.data());
  args.push_back(nullptr);
  std::vector<std::string> env_copies;
  std::vector<char*> envp;
  if (request.environment != nullptr) {
    env_copies = *request.environment;
    for (auto& e : env_copies) envp.push_back(e.data());
    envp.push_back(nullptr);
  }

  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) != 0) return Status(Code::kInternal, "pipe failed");
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    close(in_pipe[0]);
    close(in_pipe[1]);
    return Status(Code::kInternal, "pipe failed");
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]}) close(fd);
    return Status(Code::kInternal, "pipe failed");
  }
  Pipes pipes;
  pipes.fds[0] = in_pipe[1];
  pipes.fds[1] = out_pipe[0];
  pipes.fds[2] = err_pipe[0];
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  const bool own_group = !InTerminalForeground();
  if (own_group) {
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
  }
  pid_t pid = -1;
  const auto started = Clock::now();
  const int rc = posix_spawnp(&pid, args[0], &actions, &attributes, args.data(),
                              request.environment != nullptr ? envp.data() : environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) return Status(Code::kNotFound, "cannot run " + name + ": " + strerror(rc));
  // The child may stop reading its input early: a write to a closed pipe must not kill us.
  struct sigaction ignore {
  }, previous{};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, &previous);

  ProgramOutput output;
  if (request.input.empty()) CloseFd(&pipes.fds[0]);
  const std::chrono::milliseconds deadline = ChildDeadline(request.deadline);
  int exit_fd = ExitFd(pid);
  const Ending ending = Exchange(request, started + deadline, exit_fd, &pipes, &output);
  CloseFd(&exit_fd);
  if (ending != Ending::kDone) kill(own_group ? -pid : pid, SIGKILL);
  for (int& fd : pipes.fds) CloseFd(&fd);
  sigaction(SIGPIPE, &previous, nullptr);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (ending == Ending::kDeadline) {
    return Status(Code::kBusy, name + " did not finish within its deadline of " +
                                   DeadlineText(deadline) + " and was killed")
        .WithDetail(DetailKey::kCommand, name)
        .WithDetail(DetailKey::kDeadlineMs, std::to_string(deadline.count()));
  }
  output.truncated = ending == Ending::kPastCapture;
  output.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return output;
}

Result<ProgramOutput> RunProgram(const std::vector<std::string>& argv, std::string_view input,
                                 std::chrono::milliseconds deadline) {
  ProgramRequest request;
  request.argv = argv;
  request.input = input;
  request.deadline = deadline;
  return RunProgram(request);
}

}  // namespace gentle::store
