// ForgePoster: one POST of a JSON document to a forge's REST API, the only write `review post`
// makes on a forge (docs/loop.md "review post"). Paths are relative to the API root, as for the
// reads of watch/forge_client.h, whose transport, tokens and rules this shares (ForgeApi,
// watch/forge_api.h): the document goes as the body with `Content-Type: application/json`; no
// redirect is followed, 10 s to connect, 60 s for the request.
//
// A forge that cannot be reached, or redirects, is `busy`: whether it took the document is then
// unknown. An undeclared Gitea host's 401 is `forbidden` (nothing was posted). Any other HTTP
// status is an answer (the caller judges it).
#ifndef GENTLE_WATCH_POST_TRANSPORT_H_
#define GENTLE_WATCH_POST_TRANSPORT_H_

#include <memory>
#include <string>

#include "store/status.h"
#include "watch/forge_client.h"
#include "watch/http_response.h"

namespace gentle::watch {

class ForgePoster {
 public:
  virtual ~ForgePoster() = default;
  virtual Result<HttpResponse> Post(const std::string& path, const std::string& document) = 0;
};

std::unique_ptr<ForgePoster> MakeForgePoster(ForgeEndpoint endpoint);

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_POST_TRANSPORT_H_
