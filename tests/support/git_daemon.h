// GitDaemon: git's own `git daemon`, started by a test on 127.0.0.1 to serve the repositories under
// one directory over git:// (push enabled), and stopped when the object goes.
//
// The port is one the kernel handed out for an ephemeral bind just before; the daemon is ready
// when it prints "Ready to rumble" on stderr (read from a pipe: no sleep, no polling of the port).
// If another process took the port in between, the start is retried with a new one.
#ifndef GENTLE_TESTS_SUPPORT_GIT_DAEMON_H_
#define GENTLE_TESTS_SUPPORT_GIT_DAEMON_H_

#include <sys/types.h>

#include <string>

namespace gentle::testing {

class GitDaemon {
 public:
  // Serves `base_dir` (every repository below it; git://127.0.0.1:<port>/<name>). Fails the
  // running test when the daemon cannot start.
  explicit GitDaemon(const std::string& base_dir);
  ~GitDaemon();
  GitDaemon(const GitDaemon&) = delete;
  GitDaemon& operator=(const GitDaemon&) = delete;

  int port() const { return port_; }
  // git://127.0.0.1:<port>/<name>
  std::string Url(const std::string& name) const;

 private:
  bool TryStart(const std::string& base_dir, int port, std::string* log);
  void Stop();

  pid_t pid_ = -1;
  int stderr_fd_ = -1;
  int port_ = 0;
};

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_GIT_DAEMON_H_
