// The GitHub transport (watch/forge_client.h): `gh api -i`.
#include <vector>

#include "store/program_run.h"
#include "watch/forge_client.h"

namespace gentle::watch {
namespace {

// The first line of gh's stderr, at most 200 bytes (it names the failure, never a token).
std::string FirstLine(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() > 200) line.resize(200);
  return line;
}

class GhClient : public ForgeClient {
 public:
  explicit GhClient(std::string hostname) : hostname_(std::move(hostname)) {}

  Result<HttpResponse> Get(const std::string& path, const std::string& etag) override {
    std::vector<std::string> argv = {"gh", "api", "-i"};
    if (!hostname_.empty()) argv.insert(argv.end(), {"--hostname", hostname_});
    if (IsSendableEtag(etag)) argv.insert(argv.end(), {"-H", "If-None-Match: " + etag});
    argv.push_back(path);
    auto run = store::RunProgram(argv, "");
    if (!run.ok()) return Status(run.status().code(), "gh: " + run.status().message());
    auto answer = ParseHttpTranscript(run->out);
    if (answer.ok()) return answer;
    if (run->exit_code == 0) return answer.status();  // gh succeeded: the answer is malformed
    return Status(Code::kBusy, "forge unreachable: " + FirstLine(run->err));
  }

 private:
  std::string hostname_;
};

}  // namespace

std::unique_ptr<ForgeClient> MakeGhClient(std::string hostname) {
  return std::make_unique<GhClient>(std::move(hostname));
}

bool IsSendableEtag(std::string_view etag) {
  if (etag.empty() || etag.size() > 256) return false;
  for (char c : etag) {
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

}  // namespace gentle::watch
