// The Gitea transport (watch/forge_client.h): libcurl (loaded when first used, watch/curl_api.h),
// the only user of an HTTP client.
#include "watch/curl_api.h"
#include "watch/forge_client.h"

namespace gentle::watch {
namespace {

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

// Frees an easy handle through the libcurl it came from.
struct EasyCleanup {
  const CurlApi* api = nullptr;
  void operator()(CURL* c) const { api->easy_cleanup(c); }
};

// One easy handle per client for all its requests: libcurl keeps the connection to the host open
// between them (HTTP keep-alive), so a cycle of conditional requests pays one TCP connection, not
// one per PR. Every option is set again on each request.
class GiteaClient : public ForgeClient {
 public:
  GiteaClient(std::string base_url, std::string token)
      : base_url_(std::move(base_url)), token_(std::move(token)) {}

  Result<HttpResponse> Get(const std::string& path, const std::string& etag) override {
    GENTLE_ASSIGN_OR_RETURN(const CurlApi* api, LoadCurl());
    if (!curl_) curl_ = std::unique_ptr<CURL, EasyCleanup>(api->easy_init(), EasyCleanup{api});
    if (!curl_) return Status(Code::kInternal, "forge: cannot start an HTTP transfer");
    auto free_all = [api](curl_slist* list) { api->slist_free_all(list); };
    std::unique_ptr<curl_slist, decltype(free_all)> headers(nullptr, free_all);
    auto add = [&headers, api](const std::string& line) {
      curl_slist* grown = api->slist_append(headers.get(), line.c_str());
      if (grown != nullptr) {
        (void)headers.release();
        headers.reset(grown);
      }
    };
    add("Accept: application/json");
    if (!token_.empty()) add("Authorization: token " + token_);
    if (IsSendableEtag(etag)) add("If-None-Match: " + etag);
    const std::string url = base_url_ + "/api/v1/" + path;
    Transfer transfer;
    CURL* c = curl_.get();
    api->easy_setopt(c, CURLOPT_URL, url.c_str());
    api->easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
    SetRequestLimits(*api, c);
    api->easy_setopt(c, CURLOPT_WRITEFUNCTION, OnBody);
    api->easy_setopt(c, CURLOPT_WRITEDATA, &transfer);
    api->easy_setopt(c, CURLOPT_HEADERFUNCTION, OnHeader);
    api->easy_setopt(c, CURLOPT_HEADERDATA, &transfer);
    const CURLcode rc = api->easy_perform(c);
    api->easy_setopt(c, CURLOPT_HTTPHEADER, nullptr);  // the list is freed when this returns
    if (transfer.too_big) return Status(Code::kCorrupted, "forge answer: a body above 8 MiB");
    if (rc != CURLE_OK) {
      return Status(Code::kBusy, std::string("forge unreachable: ") + api->easy_strerror(rc));
    }
    long status = 0;
    api->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    transfer.response.status = static_cast<int>(status);
    return std::move(transfer.response);
  }

 private:
  std::string base_url_;
  std::string token_;
  std::unique_ptr<CURL, EasyCleanup> curl_;
};

}  // namespace

std::unique_ptr<ForgeClient> MakeGiteaClient(std::string base_url, std::string token) {
  return std::make_unique<GiteaClient>(std::move(base_url), std::move(token));
}

}  // namespace gentle::watch
