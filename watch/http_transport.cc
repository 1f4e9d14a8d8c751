#include "watch/http_transport.h"

#include <arpa/inet.h>
#include <strings.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <mutex>

#include "store/test_hooks.h"
#include "watch/curl_api.h"

namespace gentle::watch {
namespace {

Status Refuse(std::string_view base, const std::string& why) {
  return Status(Code::kUsage, "forge API " + std::string(base) + ": " + why);
}

// A host name, an IPv4 address or a bracketed IPv6 address, then an optional :PORT.
bool IsAuthority(std::string_view authority) {
  if (authority.empty() || authority.size() > 255) return false;
  size_t host_end = authority.size();
  if (authority.front() == '[') {
    host_end = authority.find(']');
    if (host_end == std::string_view::npos) return false;
    for (char c : authority.substr(1, host_end - 1)) {
      if (!std::isxdigit(static_cast<unsigned char>(c)) && c != ':' && c != '.') return false;
    }
    ++host_end;
  } else {
    host_end = std::min(authority.find(':'), authority.size());
    if (host_end == 0) return false;
    for (char c : authority.substr(0, host_end)) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') {
        return false;
      }
    }
  }
  std::string_view port = authority.substr(host_end);
  if (port.empty()) return true;
  if (port.front() != ':' || port.size() < 2 || port.size() > 6) return false;
  return std::all_of(port.begin() + 1, port.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string_view HostOf(std::string_view authority) {
  if (!authority.empty() && authority.front() == '[') {
    return authority.substr(0, authority.find(']') + 1);
  }
  return authority.substr(0, authority.find(':'));
}

struct Transfer {
  HttpResponse response;
  bool too_big = false;
};

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const size_t bytes = size * count;
  if (transfer->response.body.size() + bytes > kMaxResponseBytes) {
    transfer->too_big = true;
    return 0;  // aborts the transfer
  }
  transfer->response.body.append(data, bytes);
  return bytes;
}

// Each response's header block starts with its status line: a later block (after a 100
// Continue) replaces the earlier one.
size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const size_t bytes = size * count;
  std::string_view line(data, bytes);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  if (line.rfind("HTTP/", 0) == 0) {
    transfer->response.headers.clear();
  } else if (transfer->response.headers.size() < kMaxHeaderLines &&
             line.size() <= kMaxHeaderBytes) {
    AddHeaderLine(line, &transfer->response);
  }
  return bytes;
}

struct EasyCleanup {
  const CurlApi* api = nullptr;
  void operator()(CURL* c) const { api->easy_cleanup(c); }
};

// The CA file the environment names (how tests point at their certificate), or nothing: the
// system store libcurl was built with.
const char* CaFile() {
  for (const char* name : {"SSL_CERT_FILE", "CURL_CA_BUNDLE"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') return value;
  }
  return nullptr;
}

void SetLimits(const CurlApi& api, CURL* c) {
  const int64_t total = std::max<int64_t>(1, store::ForgeRequestTimeoutMs(kRequestTimeoutMs));
  api.easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  api.easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  api.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  api.easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
                  static_cast<long>(std::min(total, kConnectTimeoutMs)));
  api.easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(total));
  api.easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
  api.easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
  if (const char* ca = CaFile()) api.easy_setopt(c, CURLOPT_CAINFO, ca);
}

class CurlTransport : public HostTransport {
 public:
  explicit CurlTransport(std::string api_base) : api_base_(std::move(api_base)) {}

  Result<HttpResponse> Send(const HttpRequest& request) override {
    std::lock_guard<std::mutex> lock(mutex_);
    GENTLE_ASSIGN_OR_RETURN(const CurlApi* api, LoadCurl());
    if (!curl_) curl_ = std::unique_ptr<CURL, EasyCleanup>(api->easy_init(), EasyCleanup{api});
    if (!curl_) return Status(Code::kInternal, "forge: cannot start an HTTP transfer");
    auto free_all = [api](curl_slist* list) { api->slist_free_all(list); };
    std::unique_ptr<curl_slist, decltype(free_all)> headers(nullptr, free_all);
    for (const std::string& line : request.headers) {
      if (curl_slist* grown = api->slist_append(headers.get(), line.c_str())) {
        (void)headers.release();
        headers.reset(grown);
      }
    }
    const std::string url = api_base_ + "/" + request.path;
    Transfer transfer;
    CURL* c = curl_.get();
    api->easy_setopt(c, CURLOPT_URL, url.c_str());
    api->easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
    if (request.post) {
      api->easy_setopt(c, CURLOPT_POST, 1L);
      api->easy_setopt(c, CURLOPT_POSTFIELDS, request.body.c_str());
      api->easy_setopt(c, CURLOPT_POSTFIELDSIZE, static_cast<long>(request.body.size()));
    } else {
      api->easy_setopt(c, CURLOPT_HTTPGET, 1L);
    }
    SetLimits(*api, c);
    api->easy_setopt(c, CURLOPT_WRITEFUNCTION, OnBody);
    api->easy_setopt(c, CURLOPT_WRITEDATA, &transfer);
    api->easy_setopt(c, CURLOPT_HEADERFUNCTION, OnHeader);
    api->easy_setopt(c, CURLOPT_HEADERDATA, &transfer);
    const CURLcode rc = api->easy_perform(c);
    // Nothing of this request outlives it in the handle: the lists and buffers are freed below.
    api->easy_setopt(c, CURLOPT_HTTPHEADER, nullptr);
    api->easy_setopt(c, CURLOPT_POSTFIELDS, nullptr);
    if (transfer.too_big) return Status(Code::kCorrupted, "forge answer: a body above 8 MiB");
    if (rc != CURLE_OK) {
      return Status(Code::kBusy, std::string("forge unreachable: ") + api->easy_strerror(rc));
    }
    long status = 0;
    api->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    if (status >= 300 && status < 400 && status != 304) {
      return Status(Code::kBusy,
                    "the forge redirected " + request.path + " (HTTP " + std::to_string(status) +
                        "): redirects are not followed, a token never leaves its host");
    }
    transfer.response.status = static_cast<int>(status);
    return std::move(transfer.response);
  }

 private:
  std::mutex mutex_;
  std::string api_base_;
  std::unique_ptr<CURL, EasyCleanup> curl_;
};

}  // namespace

bool IsLoopbackHost(std::string_view host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (host.size() == 9 && strncasecmp(host.data(), "localhost", 9) == 0) return true;
  const std::string text(host);
  in_addr v4{};
  if (inet_pton(AF_INET, text.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (inet_pton(AF_INET6, text.c_str(), &v6) == 1) {
    static const in6_addr kLoopback = IN6ADDR_LOOPBACK_INIT;
    return std::equal(std::begin(v6.s6_addr), std::end(v6.s6_addr), kLoopback.s6_addr);
  }
  return false;
}

Result<std::string> CheckApiBase(std::string_view api_base) {
  const size_t scheme_end = api_base.find("://");
  if (scheme_end == std::string_view::npos) return Refuse(api_base, "not a URL");
  const std::string_view scheme = api_base.substr(0, scheme_end);
  std::string_view rest = api_base.substr(scheme_end + 3);
  const std::string_view authority = rest.substr(0, rest.find('/'));
  if (!IsAuthority(authority)) return Refuse(api_base, "not a host name or address with a port");
  if (scheme == "https") return std::string(authority);
  if (scheme == "http" && IsLoopbackHost(HostOf(authority))) return std::string(authority);
  if (scheme == "http") {
    return Refuse(api_base,
                  "plain http goes only to a loopback host (localhost, 127.0.0.0/8, ::1); "
                  "use https");
  }
  return Refuse(api_base, "the scheme is not https");
}

Result<std::shared_ptr<HostTransport>> TransportFor(const std::string& api_base) {
  GENTLE_RETURN_IF_ERROR(CheckApiBase(api_base).status());
  static std::mutex mutex;
  static auto* transports = new std::map<std::string, std::shared_ptr<HostTransport>>();
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<HostTransport>& transport = (*transports)[api_base];
  if (!transport) transport = std::make_shared<CurlTransport>(api_base);
  return transport;
}

}  // namespace gentle::watch
