#include "cli/pager.h"

#include <git2.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "store/git/repository.h"

namespace gentle::cli {
namespace {

std::optional<std::string> Env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

// core.pager of the repository around `cwd`; nullopt when unset or unreadable.
std::optional<std::string> ConfiguredPager(const std::string& cwd) {
  auto repo = store::git::Repository::Discover(cwd);
  if (!repo.ok()) return std::nullopt;
  git_config* config = nullptr;
  if (git_repository_config_snapshot(&config, repo->raw()) != 0) return std::nullopt;
  std::optional<std::string> out;
  git_buf value = GIT_BUF_INIT;
  if (git_config_get_string_buf(&value, config, "core.pager") == 0) {
    out = std::string(value.ptr, value.size);
    git_buf_dispose(&value);
  }
  git_config_free(config);
  return out;
}

void WriteAll(const std::string& text, std::FILE* out) {
  std::fwrite(text.data(), 1, text.size(), out);
  std::fflush(out);
}

}  // namespace

std::string PagerCommand(const std::string& cwd) {
  std::optional<std::string> pager = Env("GIT_PAGER");
  if (!pager) pager = ConfiguredPager(cwd);
  if (!pager) pager = Env("PAGER");
  if (!pager) pager = "less";
  if (*pager == "cat") return "";
  return *pager;
}

void WritePaged(const std::string& text, const std::string& cwd) {
  const std::string pager = isatty(1) == 1 ? PagerCommand(cwd) : "";
  if (pager.empty()) {
    WriteAll(text, stdout);
    return;
  }
  setenv("LESS", "FRX", 0);
  setenv("LV", "-c", 0);
  std::fflush(stdout);
  std::FILE* pipe = popen(pager.c_str(), "w");
  if (pipe == nullptr) {
    WriteAll(text, stdout);
    return;
  }
  // A pager quit before the end closes the pipe: that is not an error.
  std::signal(SIGPIPE, SIG_IGN);
  WriteAll(text, pipe);
  pclose(pipe);
}

}  // namespace gentle::cli
