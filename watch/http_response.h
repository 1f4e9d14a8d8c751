// HttpResponse: what one forge request answered (status, headers, body), as the transport gives
// it back (watch/http_transport.h).
//
// Bounds: at most kMaxHeaderLines headers of at most kMaxHeaderBytes each; the transport caps the
// body at kMaxResponseBytes (a longer answer is refused, never truncated into JSON). Header names
// compare case-insensitively. Pure, no I/O.
#ifndef GENTLE_WATCH_HTTP_RESPONSE_H_
#define GENTLE_WATCH_HTTP_RESPONSE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "store/status.h"

namespace gentle::watch {

inline constexpr size_t kMaxResponseBytes = 8 * 1024 * 1024;
inline constexpr size_t kMaxHeaderLines = 200;
inline constexpr size_t kMaxHeaderBytes = 8 * 1024;

struct HttpResponse {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  // in order, values trimmed
  std::string body;

  // The first header named `name` (any case), or nothing.
  std::optional<std::string> Header(std::string_view name) const;
};

// Adds one "Name: value" line (no line end) to `out`; a line without a colon is ignored.
void AddHeaderLine(std::string_view line, HttpResponse* out);

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_HTTP_RESPONSE_H_
