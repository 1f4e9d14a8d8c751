// HostTransport: the binary's one HTTP client (docs/watch.md "Transports"), shared by both forges
// and by `review watch` and `review post`: requests to one forge API base over libcurl (loaded
// when first used, watch/curl_api.h). The rules hold for every request, whoever makes it:
//
// - The API base is `https://AUTHORITY[/PREFIX]`, or `http://` only to a loopback host
//   (localhost, 127.0.0.0/8, ::1); the authority is a host name or address with an optional
//   port. Anything else is `usage` and nothing is sent (CheckApiBase).
// - TLS is verified (peer and host name) against the system store, or against the file
//   SSL_CERT_FILE or else CURL_CA_BUNDLE names when set (the first as gh and OpenSSL read it).
// - No redirect is followed: a 3xx other than 304 is `busy` naming the status, and the request is
//   never sent again anywhere (a token would go with it).
// - 10 s to connect, 60 s for the whole request (the test build can shorten the latter:
//   store/test_hooks.h); past either it is `busy` ("forge unreachable: ...").
// - One transport per API base for the process's life (TransportFor): its requests share one
//   kept-alive connection. Send is serialised by a mutex.
// - The answer's body is capped at kMaxResponseBytes (a longer one is `corrupted`, never cut into
//   JSON); at most kMaxHeaderLines headers of at most kMaxHeaderBytes are kept.
// Headers are the caller's ("Name: value" lines, the token's among them): they never appear in a
// URL or an error message.
#ifndef GENTLE_WATCH_HTTP_TRANSPORT_H_
#define GENTLE_WATCH_HTTP_TRANSPORT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "store/status.h"
#include "watch/http_response.h"

namespace gentle::watch {

inline constexpr int64_t kConnectTimeoutMs = 10'000;
inline constexpr int64_t kRequestTimeoutMs = 60'000;

// True for `localhost`, an IPv4 address in 127.0.0.0/8 and `::1` (bracketed or not); `host` has
// no port.
bool IsLoopbackHost(std::string_view host);

// The authority (host[:port]) of "SCHEME://AUTHORITY[/...]" after the rules above, or `usage`.
Result<std::string> CheckApiBase(std::string_view api_base);

struct HttpRequest {
  bool post = false;
  std::string path;                  // after the base: "repos/O/R/pulls/7"
  std::vector<std::string> headers;  // "Name: value"
  std::string body;                  // POST only
};

class HostTransport {
 public:
  virtual ~HostTransport() = default;
  virtual Result<HttpResponse> Send(const HttpRequest& request) = 0;
};

// The process's transport for `api_base` ("https://api.github.com",
// "https://git.example.org/api/v1"), made on first use; `usage` when the base breaks the rules.
Result<std::shared_ptr<HostTransport>> TransportFor(const std::string& api_base);

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_HTTP_TRANSPORT_H_
