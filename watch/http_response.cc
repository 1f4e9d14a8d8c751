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

Status Refuse(const std::string& why) { return Status(Code::kCorrupted, "forge answer: " + why); }

// "HTTP/1.1 200 OK" or "HTTP/2.0 304 Not Modified": the three-digit status.
std::optional<int> StatusOf(std::string_view line) {
  if (line.rfind("HTTP/", 0) != 0) return std::nullopt;
  const size_t space = line.find(' ');
  if (space == std::string_view::npos || line.size() < space + 4) return std::nullopt;
  int status = 0;
  for (size_t i = space + 1; i < space + 4; ++i) {
    if (line[i] < '0' || line[i] > '9') return std::nullopt;
    status = status * 10 + (line[i] - '0');
  }
  if (line.size() > space + 4 && line[space + 4] != ' ' && line[space + 4] != '\r') {
    return std::nullopt;
  }
  return status;
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

Result<HttpResponse> ParseHttpTranscript(std::string_view text) {
  HttpResponse out;
  size_t pos = 0;
  bool first = true;
  while (true) {
    const size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) return Refuse("no blank line after the headers");
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() > kMaxHeaderBytes) return Refuse("a header line above 8 KiB");
    if (first) {
      std::optional<int> status = StatusOf(line);
      if (!status) return Refuse("no HTTP status line");
      out.status = *status;
      first = false;
      continue;
    }
    if (line.empty()) break;
    if (out.headers.size() == kMaxHeaderLines) return Refuse("more than 200 header lines");
    AddHeaderLine(line, &out);
  }
  if (text.size() - pos > kMaxResponseBytes) return Refuse("a body above 8 MiB");
  out.body = std::string(text.substr(pos));
  return out;
}

}  // namespace gentle::watch
