// The POST transports of watch/post_transport.h.
#include "watch/post_transport.h"

#include <vector>

#include "store/program_run.h"
#include "watch/curl_api.h"

namespace gentle::watch {
namespace {

class GhPoster : public ForgePoster {
 public:
  explicit GhPoster(std::string hostname) : hostname_(std::move(hostname)) {}

  Result<HttpResponse> Post(const std::string& path, const std::string& document) override {
    std::vector<std::string> argv = {"gh", "api", "-i", "--method", "POST"};
    if (!hostname_.empty()) argv.insert(argv.end(), {"--hostname", hostname_});
    argv.insert(argv.end(), {"-H", "Content-Type: application/json", "--input", "-", path});
    auto run = store::RunProgram(argv, document);
    if (!run.ok()) return Status(run.status().code(), "gh: " + run.status().message());
    auto answer = ParseHttpTranscript(run->out);
    if (answer.ok() || run->exit_code == 0) return answer;
    std::string line = run->err.substr(0, run->err.find('\n'));
    if (line.size() > 200) line.resize(200);
    return Status(Code::kBusy, "forge unreachable: " + line);
  }

 private:
  std::string hostname_;
};

// The answer as one transcript (status line, headers, blank line, body) read back by
// ParseHttpTranscript, the reader of gh's answers: one reader for both forges' answers.
struct Transcript {
  std::string head;  // the last response's header block (a 100 Continue's is replaced)
  std::string body;
  bool too_big = false;
};

size_t OnHead(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transcript*>(user);
  const std::string_view line(data, size * count);
  if (line.rfind("HTTP/", 0) == 0) t->head.clear();
  if (t->head.size() + line.size() <= kMaxHeaderLines * kMaxHeaderBytes) t->head.append(line);
  return size * count;
}

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transcript*>(user);
  if (t->body.size() + size * count > kMaxResponseBytes) {
    t->too_big = true;
    return 0;  // aborts the transfer
  }
  t->body.append(data, size * count);
  return size * count;
}

class GiteaPoster : public ForgePoster {
 public:
  GiteaPoster(std::string base_url, std::string token)
      : base_url_(std::move(base_url)), token_(std::move(token)) {}

  Result<HttpResponse> Post(const std::string& path, const std::string& document) override {
    GENTLE_ASSIGN_OR_RETURN(const CurlApi* api, LoadCurl());
    auto cleanup = [api](CURL* c) { api->easy_cleanup(c); };
    std::unique_ptr<CURL, decltype(cleanup)> curl(api->easy_init(), cleanup);
    if (!curl) return Status(Code::kInternal, "forge: cannot start an HTTP transfer");
    auto free_all = [api](curl_slist* list) { api->slist_free_all(list); };
    std::unique_ptr<curl_slist, decltype(free_all)> headers(nullptr, free_all);
    for (const std::string& line :
         {std::string("Accept: application/json"), std::string("Content-Type: application/json"),
          token_.empty() ? std::string() : "Authorization: token " + token_}) {
      if (line.empty()) continue;
      if (curl_slist* grown = api->slist_append(headers.get(), line.c_str())) {
        (void)headers.release();
        headers.reset(grown);
      }
    }
    const std::string url = base_url_ + "/api/v1/" + path;
    Transcript t;
    CURL* c = curl.get();
    api->easy_setopt(c, CURLOPT_URL, url.c_str());
    api->easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
    api->easy_setopt(c, CURLOPT_POST, 1L);
    api->easy_setopt(c, CURLOPT_POSTFIELDS, document.c_str());
    api->easy_setopt(c, CURLOPT_POSTFIELDSIZE, static_cast<long>(document.size()));
    SetRequestLimits(*api, c);
    api->easy_setopt(c, CURLOPT_WRITEFUNCTION, OnBody);
    api->easy_setopt(c, CURLOPT_WRITEDATA, &t);
    api->easy_setopt(c, CURLOPT_HEADERFUNCTION, OnHead);
    api->easy_setopt(c, CURLOPT_HEADERDATA, &t);
    const CURLcode rc = api->easy_perform(c);
    if (t.too_big) return Status(Code::kCorrupted, "forge answer: a body above 8 MiB");
    if (rc != CURLE_OK) {
      return Status(Code::kBusy, std::string("forge unreachable: ") + api->easy_strerror(rc));
    }
    return ParseHttpTranscript(t.head + t.body);
  }

 private:
  std::string base_url_;
  std::string token_;
};

}  // namespace

std::unique_ptr<ForgePoster> MakeGhPoster(std::string hostname) {
  return std::make_unique<GhPoster>(std::move(hostname));
}

std::unique_ptr<ForgePoster> MakeGiteaPoster(std::string base_url, std::string token) {
  return std::make_unique<GiteaPoster>(std::move(base_url), std::move(token));
}

}  // namespace gentle::watch
