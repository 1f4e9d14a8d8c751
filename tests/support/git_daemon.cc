#include "tests/support/git_daemon.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <vector>

extern char** environ;

namespace gentle::testing {
namespace {

// A port the kernel considers free now (bound to 127.0.0.1:0, then released).
int EphemeralPort() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  close(fd);
  return port;
}

}  // namespace

GitDaemon::GitDaemon(const std::string& base_dir) {
  std::string log;
  for (int attempt = 0; attempt < 5 && pid_ < 0; ++attempt) {
    const int port = EphemeralPort();
    if (port != 0 && TryStart(base_dir, port, &log)) port_ = port;
  }
  INFO("git daemon output: " << log);
  REQUIRE(pid_ > 0);
}

GitDaemon::~GitDaemon() { Stop(); }

std::string GitDaemon::Url(const std::string& name) const {
  return "git://127.0.0.1:" + std::to_string(port_) + "/" + name;
}

bool GitDaemon::TryStart(const std::string& base_dir, int port, std::string* log) {
  int err_pipe[2];
  if (pipe2(err_pipe, O_CLOEXEC) != 0) return false;
  std::vector<std::string> argv = {"git",
                                   "daemon",
                                   "--verbose",
                                   "--reuseaddr",
                                   "--listen=127.0.0.1",
                                   "--port=" + std::to_string(port),
                                   "--base-path=" + base_dir,
                                   "--export-all",
                                   "--enable=receive-pack",
                                   base_dir};
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, "git", &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(err_pipe[1]);
  if (rc != 0) {
    close(err_pipe[0]);
    return false;
  }
  // Read stderr until the daemon says it listens, or it exits (EOF).
  std::string out;
  char buffer[512];
  while (out.find("Ready to rumble") == std::string::npos) {
    const ssize_t n = read(err_pipe[0], buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buffer, static_cast<size_t>(n));
  }
  *log += out;
  if (out.find("Ready to rumble") == std::string::npos) {
    close(err_pipe[0]);
    kill(pid, SIGTERM);
    waitpid(pid, nullptr, 0);
    return false;
  }
  pid_ = pid;
  stderr_fd_ = err_pipe[0];  // kept open: the daemon logs each connection there
  // The daemon writes a line per connection; a full pipe would block it, so the read end stays
  // drained by being non-blocking and read at Stop. Connections in a test are few.
  fcntl(stderr_fd_, F_SETFL, O_NONBLOCK);
  return true;
}

void GitDaemon::Stop() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  if (stderr_fd_ >= 0) {
    close(stderr_fd_);
    stderr_fd_ = -1;
  }
}

}  // namespace gentle::testing
