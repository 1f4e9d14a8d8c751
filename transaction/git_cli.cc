#include "transaction/git_cli.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

extern char** environ;

namespace gentle::transaction {
namespace {

// Closes a descriptor on scope exit.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { Reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  void Reset() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

// Reads both pipes until each reaches end of file, so neither side blocks on a full pipe.
void Drain(int out_fd, int err_fd, std::string* out, std::string* err) {
  struct pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* sinks[2] = {out, err};
  int open_count = 2;
  char buffer[65536];
  while (open_count > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = read(fds[i].fd, buffer, sizeof(buffer));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        fds[i].fd = -1;
        --open_count;
        continue;
      }
      std::string& sink = *sinks[i];
      const size_t room = kMaxGitOutput - std::min(sink.size(), kMaxGitOutput);
      sink.append(buffer, std::min(room, static_cast<size_t>(n)));
    }
  }
}

}  // namespace

std::string GitOutput::LastErrorLine() const {
  size_t end = err.size();
  while (end > 0) {
    while (end > 0 && (err[end - 1] == '\n' || err[end - 1] == '\r' || err[end - 1] == ' ')) --end;
    const size_t begin = err.rfind('\n', end == 0 ? 0 : end - 1);
    const size_t start = begin == std::string::npos ? 0 : begin + 1;
    if (end > start) return err.substr(start, end - start);
    if (begin == std::string::npos) break;
    end = begin;
  }
  return "";
}

Result<GitOutput> RunGit(const std::string& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"git", "-C", dir};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> raw;
  for (std::string& a : argv) raw.push_back(a.data());
  raw.push_back(nullptr);

  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return Status(Code::kInternal, "pipe failed");
  Fd out_read(out_pipe[0]), out_write(out_pipe[1]);
  if (pipe2(err_pipe, O_CLOEXEC) != 0) return Status(Code::kInternal, "pipe failed");
  Fd err_read(err_pipe[0]), err_write(err_pipe[1]);
  Fd devnull(open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (devnull.get() < 0) return Status(Code::kInternal, "cannot open /dev/null");

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, devnull.get(), 0);
  posix_spawn_file_actions_adddup2(&actions, out_write.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, err_write.get(), 2);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, "git", &actions, nullptr, raw.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  out_write.Reset();
  err_write.Reset();
  if (rc != 0) {
    return Status(Code::kNotFound, "cannot run git (is it on PATH?): " + std::string(strerror(rc)));
  }
  GitOutput result;
  Drain(out_read.get(), err_read.get(), &result.out, &result.err);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return Status(Code::kInternal, "waitpid failed for git");
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace gentle::transaction

namespace gentle::transaction {

std::string GitCliDir(const store::git::Repository& repo) {
  return repo.is_bare() ? repo.git_dir() : repo.worktree_root();
}

Status RequireRemote(const std::string& dir, const std::string& remote) {
  GENTLE_ASSIGN_OR_RETURN(GitOutput output, RunGit(dir, {"remote", "get-url", remote}));
  if (output.exit_code == 0) return Status::Ok();
  Status st(Code::kNotFound, output.exit_code == 2 ? "no remote named " + remote
                                                   : "git cannot read remote " + remote + ": " +
                                                         output.LastErrorLine());
  return st.WithDetail("remote", remote);
}

Status GitFailed(const std::string& verb, const std::string& remote, const GitOutput& output) {
  std::string why = output.LastErrorLine();
  if (why.empty()) why = "exit status " + std::to_string(output.exit_code);
  return Status(Code::kNotFound, "git " + verb + " with remote " + remote + " failed: " + why)
      .WithDetail("remote", remote)
      .WithDetail("git_exit", std::to_string(output.exit_code));
}

}  // namespace gentle::transaction
