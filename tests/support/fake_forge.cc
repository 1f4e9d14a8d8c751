#include "tests/support/fake_forge.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/files.h"

extern char** environ;

namespace gentle::testing {

FakeForge::FakeForge(Kind kind, const std::string& dir) : kind_(kind), dir_(dir) {
  std::filesystem::create_directories(dir_ + "/gh-config");
  if (kind_ == Kind::kGithub && !std::filesystem::exists(dir_ + "/cert.pem")) {
    RunResult cert = Run({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                          dir_ + "/key.pem", "-out", dir_ + "/cert.pem", "-days", "2", "-subj",
                          "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"});
    INFO("openssl: " << cert.err);
    REQUIRE(cert.exit_code == 0);
  }
  SetWorld(nlohmann::json::object());
  Start();
}

FakeForge::~FakeForge() { Stop(); }

void FakeForge::SetWorld(const nlohmann::json& world) {
  const std::string tmp = dir_ + "/world.json.tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << world.dump();
  }
  std::filesystem::rename(tmp, dir_ + "/world.json");
}

void FakeForge::Start() {
  REQUIRE(pid_ < 0);
  int out_pipe[2];
  REQUIRE(pipe2(out_pipe, O_CLOEXEC) == 0);
  std::vector<std::string> argv = {
      "python3", std::string(GENTLE_SOURCE_DIR) + "/tests/tools/fake_forge.py",
      "--kind",  kind_ == Kind::kGithub ? "github" : "gitea",
      "--world", dir_ + "/world.json",
      "--log",   dir_ + "/requests.log",
      "--port",  std::to_string(port_)};
  if (kind_ == Kind::kGithub) {
    argv.insert(argv.end(), {"--cert", dir_ + "/cert.pem", "--key", dir_ + "/key.pem"});
  }
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, "python3", &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  if (rc != 0) close(out_pipe[0]);
  INFO("python3 is a test prerequisite");
  REQUIRE(rc == 0);
  pid_ = pid;
  // The first line is the port, printed once the socket listens.
  std::string line;
  char c = 0;
  while (true) {
    const ssize_t n = read(out_pipe[0], &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || c == '\n') break;
    line.push_back(c);
  }
  close(out_pipe[0]);
  INFO("fake forge printed: " << line);
  REQUIRE(!line.empty());
  port_ = std::stoi(line);
}

void FakeForge::Stop() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
}

Env FakeForge::ClientEnv() const {
  Env env;
  env["GH_CONFIG_DIR"] = dir_ + "/gh-config";
  env["GH_NO_UPDATE_NOTIFIER"] = "1";
  env["GH_PROMPT_DISABLED"] = "1";
  if (kind_ == Kind::kGithub) {
    env["GH_HOST"] = "localhost:" + std::to_string(port_);
    env["GH_ENTERPRISE_TOKEN"] = kToken;
    env["SSL_CERT_FILE"] = dir_ + "/cert.pem";
  } else {
    // The fake's host declared Gitea (git config gentle-ai.giteaHost, here through git's
    // environment configuration), so $GITEA_TOKEN may go to it (docs/watch.md "Tokens").
    env["GITEA_TOKEN"] = kToken;
    env["GIT_CONFIG_COUNT"] = "1";
    env["GIT_CONFIG_KEY_0"] = "gentle-ai.giteaHost";
    env["GIT_CONFIG_VALUE_0"] = "127.0.0.1:" + std::to_string(port_);
  }
  return env;
}

std::string FakeForge::OriginUrl(const std::string& owner, const std::string& repo) const {
  const std::string base = kind_ == Kind::kGithub ? "https://localhost:" : "http://127.0.0.1:";
  return base + std::to_string(port_) + "/" + owner + "/" + repo + ".git";
}

std::vector<nlohmann::json> FakeForge::Requests() const {
  std::ifstream in(dir_ + "/requests.log");
  std::vector<nlohmann::json> out;
  std::string line;
  while (std::getline(in, line)) out.push_back(nlohmann::json::parse(line));
  return out;
}

void FakeForge::ClearRequests() { std::filesystem::remove(dir_ + "/requests.log"); }

SilentHost::SilentHost() {
  fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  REQUIRE(fd_ >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  REQUIRE(listen(fd_, 64) == 0);
  socklen_t size = sizeof address;
  REQUIRE(getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &size) == 0);
  port_ = ntohs(address.sin_port);
}

SilentHost::~SilentHost() {
  if (fd_ >= 0) close(fd_);
}

}  // namespace gentle::testing
