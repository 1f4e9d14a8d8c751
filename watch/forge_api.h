// ForgeApi: one forge endpoint's requests with their token and headers, under the rules of
// watch/forge_client.h: the reads of ForgeClient and the posts of ForgePoster
// (watch/post_transport.h) are both made here. The token is found on the first request
// (watch/forge_token.h) and kept; the transport is the process's one for the API root
// (watch/http_transport.h).
#ifndef GENTLE_WATCH_FORGE_API_H_
#define GENTLE_WATCH_FORGE_API_H_

#include <memory>
#include <optional>
#include <string>

#include "store/status.h"
#include "watch/forge_client.h"
#include "watch/forge_token.h"
#include "watch/http_transport.h"

namespace gentle::watch {

class ForgeApi {
 public:
  explicit ForgeApi(ForgeEndpoint endpoint) : endpoint_(std::move(endpoint)) {}

  // `request.path` relative to the API root; `request.headers` are added after the forge's own
  // (Accept, User-Agent, Authorization).
  Result<HttpResponse> Request(const HttpRequest& request);

 private:
  Result<Token> CurrentToken(bool refresh);
  Result<HttpResponse> SendWith(const HttpRequest& request, const Token& token);

  ForgeEndpoint endpoint_;
  std::optional<Token> token_;
  std::shared_ptr<HostTransport> transport_;
};

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_FORGE_API_H_
