// ForgeClient: one conditional GET against a forge's REST API, the watcher's only way to reach a
// forge (docs/watch.md "Transports"). Paths are relative to the API root ("repos/O/R/pulls/7").
//
// - GitHub (MakeGhClient): the user's `gh api -i PATH` with its own hosts and auth (GitHub
//   Enterprise through --hostname). gh prints the status line and headers first; a 304 or any
//   other non-2xx makes it exit 1, so the answer is read from its output, not its exit code.
//   The body is capped at 1 MiB by the program runner (store/program_run.h): a longer answer
//   reads as malformed, never as a shorter valid one.
// - Gitea (MakeGiteaClient): libcurl, `$BASE/api/v1/PATH`, `Authorization: token T` when a token
//   is given. The token never appears in a URL, a log line or an error message; redirects are
//   not followed (a redirect would carry the header to another host). Body capped at
//   kMaxResponseBytes.
// An `etag` is sent as If-None-Match; one that is not a plain printable header value is not
// sent. A forge that cannot be reached is `busy` ("forge unreachable: ..."); a missing `gh` is
// `not_found`. Any HTTP status is an answer (the caller judges it).
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

// `hostname` empty: gh's default host (or GH_HOST).
std::unique_ptr<ForgeClient> MakeGhClient(std::string hostname);
// `base_url`: "https://git.example.org" (no trailing slash). `token` empty: no Authorization.
std::unique_ptr<ForgeClient> MakeGiteaClient(std::string base_url, std::string token);

// True when `etag` may be sent back as a header value: 1 to 256 printable ASCII bytes.
bool IsSendableEtag(std::string_view etag);

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_FORGE_CLIENT_H_
