// Where a forge request's token comes from (docs/watch.md "Tokens"): a token goes only to the
// host it belongs to.
//
// - GitHub (GithubToken): the credential `gh` holds for HOST. GH_TOKEN, then GITHUB_TOKEN, for
//   github.com; GH_ENTERPRISE_TOKEN, then GITHUB_ENTERPRISE_TOKEN, for any other host; else
//   `gh auth token --hostname HOST`, run once per host for the process's life and again when
//   `refresh` (after the forge answered 401). gh without a token for the host: no token. A `gh`
//   that cannot be started, with no token in the environment, is `not_found`.
// - Gitea (GiteaToken): the password git's credential helpers hold for exactly SCHEME://AUTHORITY
//   (`git credential fill`, never prompting: no terminal, no askpass program), asked once per
//   base for the process's life; else $GITEA_TOKEN when the host is declared Gitea (routing.h);
//   else none.
// A token is 1 to 1024 printable ASCII bytes without a space (it goes into a header line); a
// value that is not is `usage` naming where it came from, never the value.
#ifndef GENTLE_WATCH_FORGE_TOKEN_H_
#define GENTLE_WATCH_FORGE_TOKEN_H_

#include <string>

#include "store/status.h"

namespace gentle::watch {

struct Token {
  std::string value;     // empty: none
  bool from_gh = false;  // asked from `gh auth token` (so asking again may give a newer one)
};

// `host`: "github.com" or an Enterprise HOST[:PORT].
Result<Token> GithubToken(const std::string& host, bool refresh);

// `scheme`: http or https; `authority`: HOST[:PORT] (watch/http_transport.h checked both);
// `dir`: the repository whose git configuration names the credential helpers (empty: the
// current directory).
Result<Token> GiteaToken(const std::string& scheme, const std::string& authority, bool declared,
                         const std::string& dir);

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_FORGE_TOKEN_H_
