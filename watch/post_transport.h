// ForgePoster: one POST of a JSON document to a forge's REST API, the only write `review post`
// makes on a forge (docs/loop.md "review post"). Paths are relative to the API root, as for the
// reads of watch/forge_client.h, whose transports and rules this follows:
//
// - GitHub (MakeGhPoster): the user's `gh api -i --method POST PATH --input -`, the document on
//   gh's stdin (never in its argv), gh's own hosts and auth. The answer is read from gh's
//   transcript, not its exit status.
// - Gitea (MakeGiteaPoster): libcurl (loaded when first used, watch/curl_api.h), `$BASE/api/v1/
//   PATH`, `Authorization: token T` as a header. The token is never in a URL, a log line or an
//   error message; redirects are not followed; the answer's body is capped at kMaxResponseBytes.
//
// A forge that cannot be reached is `busy` ("forge unreachable: ..."): whether it took the
// document is then unknown. Any HTTP status is an answer (the caller judges it).
#ifndef GENTLE_WATCH_POST_TRANSPORT_H_
#define GENTLE_WATCH_POST_TRANSPORT_H_

#include <memory>
#include <string>

#include "store/status.h"
#include "watch/http_response.h"

namespace gentle::watch {

class ForgePoster {
 public:
  virtual ~ForgePoster() = default;
  virtual Result<HttpResponse> Post(const std::string& path, const std::string& document) = 0;
};

// `hostname` empty: gh's default host (or GH_HOST).
std::unique_ptr<ForgePoster> MakeGhPoster(std::string hostname);
// `base_url`: "https://git.example.org" (no trailing slash). `token` empty: no Authorization.
std::unique_ptr<ForgePoster> MakeGiteaPoster(std::string base_url, std::string token);

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_POST_TRANSPORT_H_
