#include "watch/forge_token.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <string_view>
#include <vector>

#include "loop/harness_env.h"
#include "store/program_run.h"

namespace gentle::watch {
namespace {

constexpr size_t kMaxTokenBytes = 1024;

Result<Token> Checked(std::string value, bool from_gh, const std::string& source) {
  bool ok = !value.empty() && value.size() <= kMaxTokenBytes;
  for (char c : value) ok = ok && c > 0x20 && c < 0x7f;
  if (!ok) {
    return Status(Code::kUsage,
                  "the token from " + source + " is not 1 to 1024 printable bytes without spaces");
  }
  return Token{std::move(value), from_gh};
}

// The first set, non-empty variable of `names`.
const char* FromEnvironment(std::initializer_list<const char*> names, std::string* which) {
  for (const char* name : names) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') {
      *which = name;
      return value;
    }
  }
  return nullptr;
}

std::mutex cache_mutex;

std::map<std::string, Token>& GhCache() {
  static auto* cache = new std::map<std::string, Token>();
  return *cache;
}

std::map<std::string, Token>& CredentialCache() {
  static auto* cache = new std::map<std::string, Token>();
  return *cache;
}

Result<Token> AskGh(const std::string& host) {
  auto run = store::RunProgram({"gh", "auth", "token", "--hostname", host}, "");
  if (!run.ok()) {
    return Status(
        run.status().code(),
        "no GitHub token for " + host + " in the environment, and gh: " + run.status().message());
  }
  if (run->exit_code != 0) return Token{"", true};  // gh holds no token for the host
  std::string value = run->out.substr(0, run->out.find('\n'));
  if (value.empty()) return Token{"", true};
  return Checked(std::move(value), true, "gh auth token --hostname " + host);
}

// `git credential fill` for exactly SCHEME://AUTHORITY, with every way git could ask a person
// turned off: what a helper holds, or nothing.
Result<Token> AskGit(const std::string& scheme, const std::string& authority,
                     const std::string& dir) {
  std::vector<std::string> argv = {"env",          "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=",
                                   "SSH_ASKPASS=", "GCM_INTERACTIVE=never", "git"};
  if (!dir.empty()) argv.insert(argv.end(), {"-C", dir});
  argv.insert(argv.end(), {"credential", "fill"});
  auto run = store::RunProgram(argv, "protocol=" + scheme + "\nhost=" + authority + "\n\n");
  if (!run.ok() || run->exit_code != 0) return Token{};  // no helper holds one
  std::string_view out = run->out;
  while (!out.empty()) {
    const size_t end = out.find('\n');
    const std::string_view line = out.substr(0, end);
    out = end == std::string_view::npos ? std::string_view() : out.substr(end + 1);
    if (line.rfind("password=", 0) == 0) {
      return Checked(std::string(line.substr(9)), false,
                     "git credential fill for " + scheme + "://" + authority);
    }
  }
  return Token{};
}

}  // namespace

Result<Token> GithubToken(const std::string& host, bool refresh) {
  std::string which;
  const bool dotcom = host == "github.com";
  const char* env =
      dotcom ? FromEnvironment({"GH_TOKEN", "GITHUB_TOKEN"}, &which)
             : FromEnvironment({"GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"}, &which);
  if (env != nullptr) return Checked(env, false, "$" + which);
  std::lock_guard<std::mutex> lock(cache_mutex);
  auto found = GhCache().find(host);
  if (found != GhCache().end() && !refresh) return found->second;
  GENTLE_ASSIGN_OR_RETURN(Token token, AskGh(host));
  GhCache()[host] = token;
  return token;
}

Result<Token> GiteaToken(const std::string& scheme, const std::string& authority, bool declared,
                         const std::string& dir) {
  const std::string key = dir + "\n" + scheme + "://" + authority;
  {
    std::lock_guard<std::mutex> lock(cache_mutex);
    auto found = CredentialCache().find(key);
    if (found == CredentialCache().end()) {
      GENTLE_ASSIGN_OR_RETURN(Token token, AskGit(scheme, authority, dir));
      found = CredentialCache().emplace(key, std::move(token)).first;
    }
    if (!found->second.value.empty()) return found->second;
  }
  if (!declared) return Token{};
  // $GITEA_TOKEN, else its line in ~/.env.claude (loop/harness_env.h), only for a declared host.
  const std::string env = loop::EnvOrEnvFile("GITEA_TOKEN");
  if (env.empty()) return Token{};
  return Checked(env, false, "$GITEA_TOKEN");
}

}  // namespace gentle::watch
