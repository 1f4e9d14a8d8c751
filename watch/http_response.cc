#include "watch/http_response.h"

#include <strings.h>

namespace gentle::watch {
namespace {

std::string_view Trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

}  // namespace

std::optional<std::string> HttpResponse::Header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key.size() == name.size() && strncasecmp(key.data(), name.data(), name.size()) == 0) {
      return value;
    }
  }
  return std::nullopt;
}

void AddHeaderLine(std::string_view line, HttpResponse* out) {
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return;
  out->headers.emplace_back(std::string(Trimmed(line.substr(0, colon))),
                            std::string(Trimmed(line.substr(colon + 1))));
}

}  // namespace gentle::watch
