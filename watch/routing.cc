#include "watch/routing.h"

#include <strings.h>

#include <nlohmann/json.hpp>
#include <optional>

#include "loop/pr_key.h"
#include "store/file_io.h"
#include "store/forge_name.h"
#include "store/program_run.h"
#include "store/strict_json.h"
#include "watch/http_transport.h"

namespace gentle::watch {
namespace {

constexpr size_t kMaxTrackerBytes = 64 * 1024;

Result<std::string> Git(const std::string& dir, std::vector<std::string> args) {
  std::vector<std::string> argv = {"git", "-C", dir};
  argv.insert(argv.end(), args.begin(), args.end());
  GENTLE_ASSIGN_OR_RETURN(store::ProgramOutput run, store::RunProgram(argv, ""));
  if (run.exit_code != 0) {
    std::string why = run.err.substr(0, run.err.find('\n'));
    return Status(Code::kUsage, "git " + args[0] + " in " + dir + ": " + why.substr(0, 200));
  }
  return run.out;
}

bool IsName(std::string_view name) {
  if (name.empty() || name.size() > loop::kMaxPrNameBytes || name == "." || name == "..") {
    return false;
  }
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

// "OWNER/REPO[.git][/]" at the end of `path`.
Status OwnerRepo(std::string_view path, RemoteUrl* out) {
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  if (path.size() >= 4 && path.substr(path.size() - 4) == ".git") path.remove_suffix(4);
  const size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return Status(Code::kUsage, "no OWNER/REPO in the URL");
  std::string_view repo = path.substr(slash + 1);
  std::string_view rest = path.substr(0, slash);
  const size_t before = rest.rfind('/');
  std::string_view owner = before == std::string_view::npos ? rest : rest.substr(before + 1);
  if (!IsName(owner) || !IsName(repo)) {
    return Status(Code::kUsage, "the URL's OWNER/REPO are not [A-Za-z0-9._-] names");
  }
  out->owner = std::string(owner);
  out->repo = std::string(repo);
  return Status::Ok();
}

std::string HostWithoutPort(const std::string& host) {
  if (!host.empty() && host.front() == '[') return host.substr(0, host.find(']') + 1);
  return host.substr(0, host.find(':'));
}

Result<std::string> TrackerRemoteHost(const std::string& root) {
  const std::string path = root + "/.claude/tracker.json";
  auto text = store::ReadFileLimited(path, kMaxTrackerBytes);
  if (!text.ok()) {
    if (text.status().code() == Code::kNotFound) return std::string();
    return Status(Code::kUsage, path + ": " + text.status().message());
  }
  nlohmann::json json;
  store::StrictJsonRefusal why;
  if (!store::ParseStrictJson(*text, 16, &json, &why) || !json.is_object()) {
    return Status(Code::kUsage, path + ": not a JSON object");
  }
  auto host = json.find("remoteHost");
  if (host == json.end() || host->is_null()) return std::string();
  const std::optional<store::Forge> forge =
      host->is_string() ? store::ParseForge(host->get_ref<const std::string&>()) : std::nullopt;
  if (forge != store::Forge::kGithub && forge != store::Forge::kGitea) {
    return Status(Code::kUsage, path + ": remoteHost must be github or gitea");
  }
  return host->get<std::string>();
}

std::string Trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

// The HOST[:PORT] of "SCHEME://HOST[:PORT]".
std::string AuthorityOf(std::string_view base_url) {
  const size_t scheme = base_url.find("://");
  std::string_view rest = scheme == std::string_view::npos ? base_url : base_url.substr(scheme + 3);
  return std::string(rest.substr(0, rest.find('/')));
}

bool SameName(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

// The values of git config gentle-ai.giteaHost where `dir` is (the current directory when empty).
Result<std::vector<std::string>> ConfiguredGiteaHosts(const std::string& dir) {
  std::vector<std::string> argv = {"git"};
  if (!dir.empty()) argv.insert(argv.end(), {"-C", dir});
  argv.insert(argv.end(), {"config", "--get-all", "gentle-ai.giteaHost"});
  GENTLE_ASSIGN_OR_RETURN(store::ProgramOutput run, store::RunProgram(argv, ""));
  if (run.exit_code == 1) return std::vector<std::string>();  // not set
  if (run.exit_code != 0) {
    std::string why = run.err.substr(0, run.err.find('\n'));
    return Status(Code::kUsage, "git config gentle-ai.giteaHost in " + (dir.empty() ? "." : dir) +
                                    ": " + why.substr(0, 200));
  }
  std::vector<std::string> out;
  std::string_view text = run.out;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (!line.empty()) out.emplace_back(line);
  }
  return out;
}

}  // namespace

std::vector<Worktree> ParseWorktreeList(std::string_view porcelain) {
  std::vector<Worktree> out;
  size_t pos = 0;
  while (pos < porcelain.size()) {
    size_t end = porcelain.find('\n', pos);
    if (end == std::string_view::npos) end = porcelain.size();
    const std::string_view line = porcelain.substr(pos, end - pos);
    pos = end + 1;
    if (line.rfind("worktree ", 0) == 0) {
      out.push_back(Worktree{std::string(line.substr(9)), ""});
    } else if (line.rfind("branch refs/heads/", 0) == 0 && !out.empty()) {
      out.back().branch = std::string(line.substr(18));
    }
  }
  return out;
}

Result<std::vector<Worktree>> ListWorktrees(const std::string& repo_dir) {
  GENTLE_ASSIGN_OR_RETURN(std::string text, Git(repo_dir, {"worktree", "list", "--porcelain"}));
  return ParseWorktreeList(text);
}

std::optional<std::string> OwningWorktree(const std::vector<Worktree>& worktrees,
                                          std::string_view head_ref) {
  for (const Worktree& w : worktrees) {
    if (!w.branch.empty() && w.branch == head_ref) return w.path;
  }
  return std::nullopt;
}

std::string RepoForge::HostKey() const {
  return kind == store::Forge::kGithub ? "github:" + (host.empty() ? "github.com" : host)
                                       : "gitea:" + base_url;
}

Result<RemoteUrl> ParseRemoteUrl(std::string_view url) {
  RemoteUrl out;
  std::string_view rest;
  if (const size_t scheme = url.find("://"); scheme != std::string_view::npos) {
    out.scheme = std::string(url.substr(0, scheme));
    if (out.scheme != "http" && out.scheme != "https" && out.scheme != "ssh") {
      return Status(Code::kUsage, "origin URL scheme " + out.scheme + " is not http, https or ssh");
    }
    rest = url.substr(scheme + 3);
    const size_t slash = rest.find('/');
    if (slash == std::string_view::npos) return Status(Code::kUsage, "origin URL has no path");
    std::string_view authority = rest.substr(0, slash);
    if (const size_t at = authority.rfind('@'); at != std::string_view::npos) {
      authority = authority.substr(at + 1);
    }
    out.host = std::string(authority);
    if (out.scheme == "ssh") out.host = HostWithoutPort(out.host);
    rest = rest.substr(slash + 1);
  } else {
    // scp-like: [user@]host:OWNER/REPO.git
    const size_t colon = url.find(':');
    if (colon == std::string_view::npos) return Status(Code::kUsage, "origin is not a URL");
    std::string_view host = url.substr(0, colon);
    if (const size_t at = host.rfind('@'); at != std::string_view::npos) host = host.substr(at + 1);
    out.scheme = "ssh";
    out.host = std::string(host);
    rest = url.substr(colon + 1);
  }
  if (out.host.empty()) return Status(Code::kUsage, "origin URL has no host");
  GENTLE_RETURN_IF_ERROR(OwnerRepo(rest, &out));
  return out;
}

Result<RepoForge> ForgeFromRemote(std::string_view origin_url, std::string_view remote_host) {
  auto url = ParseRemoteUrl(origin_url);
  if (!url.ok()) return Status(Code::kUsage, "origin: " + url.status().message());
  RepoForge out;
  out.owner = url->owner;
  out.repo = url->repo;
  const bool github = remote_host.empty() ? HostWithoutPort(url->host) == "github.com"
                                          : store::ParseForge(remote_host) == store::Forge::kGithub;
  if (github) {
    out.kind = store::Forge::kGithub;
    // An ssh origin's host has no port left (ParseRemoteUrl); an http(s) one keeps its port.
    out.host = HostWithoutPort(url->host) == "github.com" ? "" : url->host;
  } else {
    out.kind = store::Forge::kGitea;
    const std::string scheme = url->scheme == "http" ? "http" : "https";
    out.base_url = scheme + "://" + (url->scheme == "ssh" ? HostWithoutPort(url->host) : url->host);
    out.gitea_declared = !remote_host.empty();
    if (scheme == "http" && !IsLoopbackHost(HostWithoutPort(url->host))) {
      return Status(Code::kUsage, "origin " + out.base_url +
                                      ": plain http goes only to a loopback host (localhost, "
                                      "127.0.0.0/8, ::1); use an https origin");
    }
  }
  return out;
}

Result<RepoForge> ResolveRepoForge(const std::string& worktree_root) {
  GENTLE_ASSIGN_OR_RETURN(std::string remote_host, TrackerRemoteHost(worktree_root));
  GENTLE_ASSIGN_OR_RETURN(std::string origin, Git(worktree_root, {"remote", "get-url", "origin"}));
  auto forge = ForgeFromRemote(Trimmed(origin), remote_host);
  if (!forge.ok()) return Status(Code::kUsage, worktree_root + ": " + forge.status().message());
  forge->dir = worktree_root;
  if (forge->kind == store::Forge::kGitea && !forge->gitea_declared) {
    GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> hosts, ConfiguredGiteaHosts(worktree_root));
    forge->gitea_declared = IsDeclaredGitea(hosts, forge->base_url);
  }
  return forge;
}

Result<std::vector<std::string>> DeclaredGiteaHosts(const std::string& worktree_root) {
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> out, ConfiguredGiteaHosts(worktree_root));
  if (worktree_root.empty()) return out;
  GENTLE_ASSIGN_OR_RETURN(std::string remote_host, TrackerRemoteHost(worktree_root));
  if (store::ParseForge(remote_host) != store::Forge::kGitea) return out;
  auto origin = Git(worktree_root, {"remote", "get-url", "origin"});
  if (!origin.ok()) return out;
  auto forge = ForgeFromRemote(Trimmed(*origin), remote_host);
  if (forge.ok()) out.push_back(AuthorityOf(forge->base_url));
  return out;
}

bool IsDeclaredGitea(const std::vector<std::string>& declared, std::string_view base_url) {
  const std::string authority = AuthorityOf(base_url);
  const std::string host = HostWithoutPort(authority);
  for (const std::string& value : declared) {
    if (SameName(value, authority)) return true;
    if (HostWithoutPort(value) == value && SameName(value, host)) return true;
  }
  return false;
}

ForgeEndpoint EndpointOf(const RepoForge& forge) {
  ForgeEndpoint out;
  out.kind = forge.kind;
  out.endpoint = forge.kind == store::Forge::kGithub ? forge.host : forge.base_url;
  out.gitea_declared = forge.gitea_declared;
  out.config_dir = forge.dir;
  return out;
}

}  // namespace gentle::watch
