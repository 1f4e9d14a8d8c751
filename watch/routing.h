// Where a pull request lives and who owns it (docs/watch.md "Routing", "Forge resolution").
//
// ParseWorktreeList reads `git worktree list --porcelain`: each worktree's path and checked-out
// branch (refs/heads/ stripped; a detached or bare worktree has none). The owning worktree of a
// PR is the one whose branch is the PR's head branch; nothing the sessions write affects it.
//
// ResolveRepoForge: the forge of one repository: `.claude/tracker.json` `remoteHost` at the
// worktree root (`github` or `gitea`; at most 64 KiB, a regular file) if set, else the host of
// `git remote get-url origin`: `github.com` is GitHub, any other host Gitea at that host's base
// URL (the origin's http(s) scheme and port; https for ssh and scp-like origins). A GitHub origin
// on another host is an Enterprise host, its http(s) port kept. OWNER/REPO come from the origin's
// last two path components (a trailing .git dropped) and must be valid PR-key names
// (loop/pr_key.h). A Gitea base URL over plain http to a host that is not loopback (localhost,
// 127.0.0.0/8, ::1) is refused: a token would cross the network in clear. Anything else is
// `usage` naming the repository.
//
// A Gitea host is declared (so $GITEA_TOKEN may go to it, watch/forge_token.h) when tracker.json
// says `remoteHost: gitea` for the origin's host, or a value of the git configuration
// `gentle-ai.giteaHost` (any scope, `git config --get-all`) is its HOST[:PORT], or its HOST when
// the value has no port (compared without case).
#ifndef GENTLE_WATCH_ROUTING_H_
#define GENTLE_WATCH_ROUTING_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/status.h"
#include "watch/forge_client.h"

namespace gentle::watch {

struct Worktree {
  std::string path;
  std::string branch;  // empty: detached, bare or unborn
};

std::vector<Worktree> ParseWorktreeList(std::string_view porcelain);
Result<std::vector<Worktree>> ListWorktrees(const std::string& repo_dir);

// The worktree of `worktrees` whose branch is `head_ref`, if any.
std::optional<std::string> OwningWorktree(const std::vector<Worktree>& worktrees,
                                          std::string_view head_ref);

struct RepoForge {
  store::Forge kind = store::Forge::kGithub;
  std::string host;      // github: an Enterprise HOST[:PORT] ("" for github.com); gitea: unused
  std::string base_url;  // gitea: "https://host[:port]"
  std::string owner, repo;
  bool gitea_declared = false;  // gitea: the host is declared Gitea (above)
  std::string dir;              // the worktree it was resolved in (its git configuration)

  // A key for per-host state (rate limits, backoff): "github:HOST" or "gitea:BASE".
  std::string HostKey() const;
};

struct RemoteUrl {
  std::string scheme;  // http | https | ssh
  std::string host;    // with :port for http(s)
  std::string owner, repo;
};
Result<RemoteUrl> ParseRemoteUrl(std::string_view url);

// `remote_host`: tracker.json's remoteHost, or empty.
Result<RepoForge> ForgeFromRemote(std::string_view origin_url, std::string_view remote_host);
Result<RepoForge> ResolveRepoForge(const std::string& worktree_root);

// The hosts declared Gitea in the repository at `worktree_root` (above): tracker.json's origin
// host and the gentle-ai.giteaHost values. Empty root: the git configuration of the current
// directory alone.
Result<std::vector<std::string>> DeclaredGiteaHosts(const std::string& worktree_root);
// Whether the Gitea `base_url` is one of `declared`.
bool IsDeclaredGitea(const std::vector<std::string>& declared, std::string_view base_url);

// Where `forge` answers, for the transports (watch/forge_client.h).
ForgeEndpoint EndpointOf(const RepoForge& forge);

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_ROUTING_H_
