// The POST transport of watch/post_transport.h, through ForgeApi (watch/forge_api.h).
#include "watch/post_transport.h"

#include "watch/forge_api.h"

namespace gentle::watch {
namespace {

class Poster : public ForgePoster {
 public:
  explicit Poster(ForgeEndpoint endpoint) : api_(std::move(endpoint)) {}

  Result<HttpResponse> Post(const std::string& path, const std::string& document) override {
    HttpRequest request;
    request.post = true;
    request.path = path;
    request.headers.push_back("Content-Type: application/json");
    request.body = document;
    return api_.Request(request);
  }

 private:
  ForgeApi api_;
};

}  // namespace

std::unique_ptr<ForgePoster> MakeForgePoster(ForgeEndpoint endpoint) {
  return std::make_unique<Poster>(std::move(endpoint));
}

}  // namespace gentle::watch
