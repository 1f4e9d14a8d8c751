#include "tests/support/process.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <stdexcept>

extern char** environ;

namespace gentle::testing {

nlohmann::json RunResult::Json() const {
  auto doc = nlohmann::json::parse(out, nullptr, false);
  if (doc.is_discarded()) {
    throw std::runtime_error("stdout is not one JSON document\nstdout: " + out +
                             "\nstderr: " + err);
  }
  return doc;
}

RunResult Run(const std::vector<std::string>& argv, const std::string& cwd, const Env& env,
              const std::string& stdin_data, int timeout_ms) {
  RunResult result;
  if (argv.empty()) {
    result.err = "spawn failed: no program";
    return result;
  }
  Env full;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string kv(*e);
    size_t eq = kv.find('=');
    if (eq != std::string::npos) full[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  for (const auto& [k, v] : env) full[k] = v;
  std::vector<std::string> env_strings;
  for (const auto& [k, v] : full) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) != 0 || pipe2(out_pipe, O_CLOEXEC) != 0 ||
      pipe2(err_pipe, O_CLOEXEC) != 0) {
    result.err = "spawn failed: pipe";
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  // With a timeout the child leads a process group of its own, so that a kill takes whatever it
  // started with it.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  if (timeout_ms > 0) {
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
  }
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0].c_str(), &actions, &attributes, args.data(), envp.data());
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) {
    close(in_pipe[1]);
    close(out_pipe[0]);
    close(err_pipe[0]);
    result.err = "spawn failed: " + argv[0];
    return result;
  }
  size_t written = 0;
  int in_fd = in_pipe[1];
  if (stdin_data.empty()) {
    close(in_fd);
    in_fd = -1;
  } else {
    fcntl(in_fd, F_SETFL, O_NONBLOCK);
  }
  int out_fd = out_pipe[0];
  int err_fd = err_pipe[0];
  char buf[65536];
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (in_fd >= 0 || out_fd >= 0 || err_fd >= 0) {
    int wait_ms = -1;
    if (timeout_ms > 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        kill(-pid, SIGKILL);
        result.timed_out = true;
        for (int* fd : {&in_fd, &out_fd, &err_fd}) {
          if (*fd >= 0) close(*fd);
          *fd = -1;
        }
        break;
      }
      wait_ms = static_cast<int>(left.count());
    }
    pollfd fds[3] = {{in_fd, POLLOUT, 0}, {out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
    const int ready = poll(fds, 3, wait_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (ready == 0) continue;  // the deadline passed: killed above
    if (in_fd >= 0 && (fds[0].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t n = write(in_fd, stdin_data.data() + written, stdin_data.size() - written);
      if (n > 0) written += static_cast<size_t>(n);
      if (n < 0 && errno != EAGAIN && errno != EINTR) written = stdin_data.size();
      if (written == stdin_data.size()) {
        close(in_fd);
        in_fd = -1;
      }
    }
    int* fdp[2] = {&out_fd, &err_fd};
    std::string* sinks[2] = {&result.out, &result.err};
    for (int i = 0; i < 2; ++i) {
      if (*fdp[i] >= 0 && (fds[i + 1].revents & (POLLIN | POLLHUP | POLLERR))) {
        ssize_t n = read(*fdp[i], buf, sizeof(buf));
        if (n > 0) {
          sinks[i]->append(buf, static_cast<size_t>(n));
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
          close(*fdp[i]);
          *fdp[i] = -1;
        }
      }
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.exit_code = 128 + WTERMSIG(status);
  }
  return result;
}

std::string Trim(const std::string& s) {
  size_t end = s.find_last_not_of(" \n\r\t");
  return end == std::string::npos ? "" : s.substr(0, end + 1);
}

}  // namespace gentle::testing
