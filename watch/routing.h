// Where a pull request lives and who owns it (docs/watch.md "Routing", "Forge resolution").
//
// ParseWorktreeList reads `git worktree list --porcelain`: each worktree's path and checked-out
// branch (refs/heads/ stripped; a detached or bare worktree has none). The owning worktree of a
// PR is the one whose branch is the PR's head branch; nothing the sessions write affects it.
//
// ResolveRepoForge: the forge of one repository: `.claude/tracker.json` `remoteHost` at the
// worktree root (`github` or `gitea`; at most 64 KiB, a regular file) if set, else the host of
// `git remote get-url origin`: `github.com` is GitHub, any other host Gitea at that host's base
// URL (the origin's http(s) scheme and port; https for ssh and scp-like origins). OWNER/REPO come
// from the origin's last two path components (a trailing .git dropped) and must be valid PR-key
// names (loop/pr_key.h). Anything else is `usage` naming the repository.
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
  std::string host;      // github: the gh hostname ("" for github.com); gitea: unused
  std::string base_url;  // gitea: "https://host[:port]"
  std::string owner, repo;

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

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_ROUTING_H_
