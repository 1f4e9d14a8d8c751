// FakeForge: tests/tools/fake_forge.py started by a test on 127.0.0.1, serving GitHub's REST
// shapes over HTTPS (for the real `gh`, with a throw-away certificate for DNS:localhost made
// with the `openssl` CLI) or Gitea's over HTTP (for libcurl). The test describes the forge in a
// "world" JSON (replaced atomically: the fake re-reads it on every request) and reads back the
// requests it served.
//
// The fake binds port 0 and prints the port it got: the start waits for that line on a pipe (no
// sleep). Stop() and Start() end and restart it on the same port (a forge that is down and comes
// back). A missing python3 or openssl fails the test.
#ifndef GENTLE_TESTS_SUPPORT_FAKE_FORGE_H_
#define GENTLE_TESTS_SUPPORT_FAKE_FORGE_H_

#include <sys/types.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/process.h"

namespace gentle::testing {

class FakeForge {
 public:
  enum class Kind { kGithub, kGitea };
  // `dir`: where the world, the log and the certificate go.
  FakeForge(Kind kind, const std::string& dir);
  ~FakeForge();
  FakeForge(const FakeForge&) = delete;
  FakeForge& operator=(const FakeForge&) = delete;

  void SetWorld(const nlohmann::json& world);
  void Stop();
  void Start();  // on the port of the first start

  int port() const { return port_; }
  // The environment under which gh reaches this fake (GH_HOST, GH_ENTERPRISE_TOKEN,
  // SSL_CERT_FILE, a private GH_CONFIG_DIR) or libcurl authenticates (GITEA_TOKEN).
  Env ClientEnv() const;
  // "http://127.0.0.1:PORT/OWNER/REPO.git" (gitea) for an origin URL.
  std::string OriginUrl(const std::string& owner, const std::string& repo) const;
  // The requests served so far, one JSON object each (method, path, if_none_match,
  // authorization, status).
  std::vector<nlohmann::json> Requests() const;
  void ClearRequests();

  static constexpr const char* kToken = "T0KEN-secret-42";

 private:
  Kind kind_;
  std::string dir_;
  pid_t pid_ = -1;
  int port_ = 0;
};

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_FAKE_FORGE_H_
