// The forge reads of watch/forge_client.h, through ForgeApi (watch/forge_api.h).
#include "watch/forge_client.h"

#include "watch/forge_api.h"

namespace gentle::watch {
namespace {

class Client : public ForgeClient {
 public:
  explicit Client(ForgeEndpoint endpoint) : api_(std::move(endpoint)) {}

  Result<HttpResponse> Get(const std::string& path, const std::string& etag) override {
    HttpRequest request;
    request.path = path;
    if (IsSendableEtag(etag)) request.headers.push_back("If-None-Match: " + etag);
    return api_.Request(request);
  }

 private:
  ForgeApi api_;
};

}  // namespace

std::unique_ptr<ForgeClient> MakeForgeClient(ForgeEndpoint endpoint) {
  return std::make_unique<Client>(std::move(endpoint));
}

bool IsSendableEtag(std::string_view etag) {
  if (etag.empty() || etag.size() > 256) return false;
  for (char c : etag) {
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

}  // namespace gentle::watch
