#include "store/program_run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

extern char** environ;

namespace gentle::store {
namespace {

constexpr size_t kMaxCapture = 1u << 20;

void CloseFd(int* fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

}  // namespace

Result<ProgramOutput> RunProgram(const std::vector<std::string>& argv, std::string_view input) {
  if (argv.empty()) return Status(Code::kInternal, "RunProgram needs a program");
  std::vector<std::string> copies = argv;
  std::vector<char*> args;
  for (auto& a : copies) args.push_back(a.data());
  args.push_back(nullptr);

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
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  int fds[3] = {in_pipe[1], out_pipe[0], err_pipe[0]};
  if (rc != 0) {
    for (int& fd : fds) CloseFd(&fd);
    return Status(Code::kNotFound, "cannot run " + argv[0] + ": " + strerror(rc));
  }
  // The child may stop reading its input early: a write to a closed pipe must not kill us.
  struct sigaction ignore {
  }, previous{};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, &previous);

  ProgramOutput output;
  size_t written = 0;
  if (input.empty()) CloseFd(&fds[0]);
  char buffer[65536];
  while (fds[0] >= 0 || fds[1] >= 0 || fds[2] >= 0) {
    pollfd polls[3];
    nfds_t count = 0;
    int which[3];
    for (int i = 0; i < 3; ++i) {
      if (fds[i] < 0) continue;
      polls[count] = {fds[i], static_cast<short>(i == 0 ? POLLOUT : POLLIN), 0};
      which[count++] = i;
    }
    if (poll(polls, count, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (nfds_t k = 0; k < count; ++k) {
      if (polls[k].revents == 0) continue;
      const int i = which[k];
      if (i == 0) {
        const ssize_t n = write(fds[0], input.data() + written, input.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
          CloseFd(&fds[0]);
          continue;
        }
        written += static_cast<size_t>(n);
        if (written == input.size()) CloseFd(&fds[0]);
        continue;
      }
      const ssize_t n = read(fds[i], buffer, sizeof(buffer));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        CloseFd(&fds[i]);
        continue;
      }
      std::string& sink = i == 1 ? output.out : output.err;
      const size_t room = kMaxCapture - std::min(kMaxCapture, sink.size());
      sink.append(buffer, std::min(room, static_cast<size_t>(n)));
    }
  }
  for (int& fd : fds) CloseFd(&fd);
  sigaction(SIGPIPE, &previous, nullptr);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  output.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return output;
}

}  // namespace gentle::store
