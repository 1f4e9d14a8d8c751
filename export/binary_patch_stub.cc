// TEMPORARY stand-in for the native binary-patch writer (export/binary_patch.h), which another
// engineer is writing. It hands the section to the pinned git CLI: both contents are written as
// loose blobs into a private scratch repository and `git diff --binary` between the two blob ids
// supplies the bytes from "GIT binary patch" through the final blank line. Delete this file when
// export/binary_patch.cc lands.
#include <fcntl.h>
#include <git2.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

#include "export/binary_patch.h"
#include "export/git_flags.h"

extern char** environ;

namespace gentle::exporter {
namespace {

struct Scratch {
  std::string dir;
  git_repository* repo = nullptr;
  Status status;
};

// Runs argv with `env`, returning stdout; stderr is discarded.
Status RunGit(const std::vector<std::string>& argv, const std::vector<std::string>& env,
              std::string* out) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return Status(Code::kInternal, "pipe failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<char*> envp;
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  pid_t pid;
  int rc = posix_spawnp(&pid, "git", &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (rc != 0) {
    close(pipe_fds[0]);
    return Status(Code::kInternal, "cannot spawn git");
  }
  char buf[65536];
  for (;;) {
    ssize_t n = read(pipe_fds[0], buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out->append(buf, static_cast<size_t>(n));
  }
  close(pipe_fds[0]);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
    return Status(Code::kInternal, "git diff for a binary section failed");
  }
  return Status::Ok();
}

std::vector<std::string> GitEnv(const std::string& dir) {
  const char* path = std::getenv("PATH");
  return {"PATH=" + std::string(path != nullptr ? path : "/usr/bin:/bin"),
          "HOME=" + dir,
          "GIT_CONFIG_NOSYSTEM=1",
          "GIT_CONFIG_GLOBAL=/dev/null",
          "GIT_ATTR_NOSYSTEM=1",
          "LC_ALL=C",
          "GIT_DIR=" + dir + "/repo.git"};
}

// Never destroyed: the atexit handler below is registered while the scratch is still being built,
// so it runs after a function-local static's destructor would have freed `dir` (ASan found that
// heap-use-after-free at exit of every export with a binary file).
Scratch& GetScratch() {
  static Scratch& scratch = *new Scratch([] {
    Scratch s;
    git_libgit2_init();
    std::string tmpl = (std::filesystem::temp_directory_path() / "gentle-binstub-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) {
      s.status = Status(Code::kInternal, "mkdtemp failed");
      return s;
    }
    s.dir = tmpl;
    if (git_repository_init(&s.repo, (s.dir + "/repo.git").c_str(), 1) != 0) {
      s.status = Status(Code::kInternal, "cannot create the scratch repository");
    }
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(GetScratch().dir, ec);
    });
    return s;
  }());
  return scratch;
}

}  // namespace

Status AppendBinaryPatch(std::string_view old_data, std::string_view new_data, std::string* out) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  Scratch& scratch = GetScratch();
  if (!scratch.status.ok()) return scratch.status;
  git_oid old_id;
  git_oid new_id;
  if (git_blob_create_from_buffer(&old_id, scratch.repo, old_data.data(), old_data.size()) != 0 ||
      git_blob_create_from_buffer(&new_id, scratch.repo, new_data.data(), new_data.size()) != 0) {
    return Status(Code::kInternal, "cannot write scratch blobs");
  }
  char old_hex[GIT_OID_HEXSZ + 1];
  char new_hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(old_hex, sizeof(old_hex), &old_id);
  git_oid_tostr(new_hex, sizeof(new_hex), &new_id);
  std::string diff;
  GENTLE_RETURN_IF_ERROR(RunGit(OracleArgv(old_hex, new_hex), GitEnv(scratch.dir), &diff));
  size_t at = diff.find("\nGIT binary patch\n");
  if (at == std::string::npos) return Status(Code::kInternal, "git printed no binary section");
  out->append(diff, at + 1, std::string::npos);
  return Status::Ok();
}

}  // namespace gentle::exporter
