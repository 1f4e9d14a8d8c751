// FakeForge: tests/tools/fake_forge.py started by a test on 127.0.0.1, serving GitHub's REST
// shapes over HTTPS (with a throw-away certificate for DNS:localhost made with the `openssl` CLI)
// or Gitea's over HTTP, both for the libcurl transport (watch/http_transport.h). The test describes
// the forge in a "world" JSON (replaced atomically: the fake re-reads it on every request) and
// reads back the requests it served.
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
  // `dir`: where the world, the log and the certificate go. A `dir` already holding cert.pem and
  // key.pem keeps them (two fakes trusted through one SSL_CERT_FILE).
  FakeForge(Kind kind, const std::string& dir);
  ~FakeForge();
  FakeForge(const FakeForge&) = delete;
  FakeForge& operator=(const FakeForge&) = delete;

  void SetWorld(const nlohmann::json& world);
  void Stop();
  void Start();  // on the port of the first start

  int port() const { return port_; }
  // The environment under which the transport reaches this fake with its token: github: GH_HOST,
  // GH_ENTERPRISE_TOKEN, SSL_CERT_FILE, a private GH_CONFIG_DIR (for `gh auth token`); gitea:
  // GITEA_TOKEN, and the fake's 127.0.0.1:PORT declared Gitea (gentle-ai.giteaHost through
  // GIT_CONFIG_COUNT/KEY/VALUE).
  Env ClientEnv() const;
  // "http://127.0.0.1:PORT/OWNER/REPO.git" (gitea) or "https://localhost:PORT/OWNER/REPO.git"
  // (github: an Enterprise host) for an origin URL.
  std::string OriginUrl(const std::string& owner, const std::string& repo) const;
  // The requests served so far, one JSON object each (method, path, if_none_match,
  // authorization, status).
  std::vector<nlohmann::json> Requests() const;
  void ClearRequests();
  const std::string& dir() const { return dir_; }

  static constexpr const char* kToken = "T0KEN-secret-42";

 private:
  Kind kind_;
  std::string dir_;
  pid_t pid_ = -1;
  int port_ = 0;
};

// A host that accepts connections and never answers: a socket listening on 127.0.0.1 (port chosen
// by the OS) that is never accepted from, so the kernel completes each connection and nothing is
// ever sent on it. Closed when destroyed.
class SilentHost {
 public:
  SilentHost();
  ~SilentHost();
  SilentHost(const SilentHost&) = delete;
  SilentHost& operator=(const SilentHost&) = delete;
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_FAKE_FORGE_H_
