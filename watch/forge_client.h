// ForgeClient: one conditional GET against a forge's REST API, the watcher's only way to reach a
// forge (docs/watch.md "Transports"). Paths are relative to the API root ("repos/O/R/pulls/7").
//
// Both forges go through the one HTTP client of the binary (watch/http_transport.h: no redirect
// followed, TLS verified, plain http only to loopback, 10 s to connect, 60 s per request, one
// kept-alive connection per API base) with the token watch/forge_token.h finds for the host, as
// `Authorization: token T`. The API root:
// - GitHub: `https://api.github.com` for github.com, `https://HOST[:PORT]/api/v3` for an
//   Enterprise host (the endpoint; empty: gh's host, $GH_HOST when set, else github.com). A 401
//   answered to a token `gh auth token` gave asks gh again and, when it gives another token,
//   sends the request once more.
// - Gitea: `BASE/api/v1`. A 401 answered to a request sent without a token to a host not
//   declared Gitea is `forbidden` naming how to declare it (docs/watch.md "Tokens").
// An `etag` is sent as If-None-Match; one that is not a plain printable header value is not
// sent. A forge that cannot be reached, or redirects, is `busy`; a transport that cannot run
// (no loadable libcurl, no gh for a GitHub token) is `not_found`. Any other HTTP status is an
// answer (the caller judges it).
#ifndef GENTLE_WATCH_FORGE_CLIENT_H_
#define GENTLE_WATCH_FORGE_CLIENT_H_

#include <memory>
#include <string>
#include <string_view>

#include "store/forge_name.h"
#include "store/status.h"
#include "watch/http_response.h"

namespace gentle::watch {

// The forges the watcher polls are store::Forge's kGithub and kGitea (Aone has no REST poller).

class ForgeClient {
 public:
  virtual ~ForgeClient() = default;
  virtual Result<HttpResponse> Get(const std::string& path, const std::string& etag) = 0;
};

// Where one forge's API answers, and what decides its token.
struct ForgeEndpoint {
  store::Forge kind = store::Forge::kGithub;
  // github: an Enterprise HOST[:PORT], or empty for gh's host; gitea: the base URL
  // "https://host[:port]" (no trailing slash).
  std::string endpoint;
  bool gitea_declared = false;  // $GITEA_TOKEN may go to this Gitea host
  std::string config_dir;       // the repository whose git configuration names credential helpers
};

// A GitHub endpoint's host: the endpoint, else $GH_HOST when set, else "github.com".
std::string GithubHost(const std::string& endpoint);
// The API root of `endpoint` (above).
std::string ApiBase(const ForgeEndpoint& endpoint);

std::unique_ptr<ForgeClient> MakeForgeClient(ForgeEndpoint endpoint);

// True when `etag` may be sent back as a header value: 1 to 256 printable ASCII bytes.
bool IsSendableEtag(std::string_view etag);

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_FORGE_CLIENT_H_
