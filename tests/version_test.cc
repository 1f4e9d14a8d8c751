// gentle-ai --version and `gentle-ai version [--json]` (cli/version_report.h): the version CMake
// sets, the build's git describe, and the versions of the libraries linked in, each checked
// against an oracle outside the code under test (CMake's PROJECT_VERSION, git itself, pkg-config).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/support/gentle_ai.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

// `pkg-config --modversion MODULE`: the version of the -dev package the build linked.
std::string PkgConfigVersion(const std::string& module) {
  RunResult run = Run({"pkg-config", "--modversion", module});
  REQUIRE(run.exit_code == 0);
  return Trim(run.out);
}

// Whether the source directory is a git checkout (else the build had no describe).
bool SourceIsCheckout() {
  return Run({"git", "-C", GENTLE_SOURCE_DIR, "rev-parse", "--git-dir"}).exit_code == 0;
}

// What git itself describes the commit that `describe` names as: "v1-3-g1234567" names 1234567,
// "a4c2ac0" or a tag names itself. Empty when the checkout has no such commit. The build's commit,
// not HEAD: the checkout may have moved on since the binary was built.
std::string GitDescribeOfNamedCommit(const std::string& describe) {
  const std::size_t g = describe.rfind("-g");
  const std::string name = g == std::string::npos ? describe : describe.substr(g + 2);
  RunResult commit =
      Run({"git", "-C", GENTLE_SOURCE_DIR, "rev-parse", "--verify", "-q", name + "^{commit}"});
  if (commit.exit_code != 0) return "";
  RunResult run =
      Run({"git", "-C", GENTLE_SOURCE_DIR, "describe", "--always", "--tags", Trim(commit.out)});
  return run.exit_code == 0 ? Trim(run.out) : "";
}

std::string WithoutDirty(std::string describe) {
  const std::string suffix = "-dirty";
  if (describe.size() > suffix.size() &&
      describe.compare(describe.size() - suffix.size(), suffix.size(), suffix) == 0) {
    describe.resize(describe.size() - suffix.size());
  }
  return describe;
}

std::string ExpectedText(const nlohmann::json& report) {
  std::string text = "gentle-ai " + report["version"].get<std::string>();
  if (!report["git_describe"].is_null()) {
    text += " (" + report["git_describe"].get<std::string>() + ")";
  }
  const nlohmann::json& libs = report["libraries"];
  return text + "\nlibgit2 " + libs["libgit2"].get<std::string>() + ", SQLite " +
         libs["sqlite"].get<std::string>() + ", OpenSSL " + libs["openssl"].get<std::string>() +
         ", zlib " + libs["zlib"].get<std::string>() + "\n";
}

TEST_CASE("version --json: the project version and the libraries linked in") {
  TempDir dir;  // no repository: the version needs none
  RunResult run = GentleAi({"version", "--json"}, dir.path());
  REQUIRE(run.exit_code == 0);
  CHECK(run.err.empty());
  const nlohmann::json report = run.Json();
  CHECK(report["schema"] == "gentle-ai.version/v1");
  CHECK(report["version"] == GENTLE_PROJECT_VERSION);
  if (!SourceIsCheckout()) {
    CHECK(report["git_describe"].is_null());
  } else {
    REQUIRE(report["git_describe"].is_string());
    const std::string describe = WithoutDirty(report["git_describe"].get<std::string>());
    CHECK(GitDescribeOfNamedCommit(describe) == describe);
  }
  const nlohmann::json& libs = report["libraries"];
  CHECK(libs["libgit2"] == PkgConfigVersion("libgit2"));
  CHECK(libs["sqlite"] == PkgConfigVersion("sqlite3"));
  CHECK(libs["openssl"] == PkgConfigVersion("libcrypto"));
  CHECK(libs["zlib"] == PkgConfigVersion("zlib"));
  // Exactly these members, in this order.
  const nlohmann::ordered_json ordered = nlohmann::ordered_json::parse(run.out);
  std::vector<std::string> keys;
  for (const auto& [key, value] : ordered.items()) keys.push_back(key);
  CHECK(keys == std::vector<std::string>{"schema", "version", "git_describe", "libraries"});
}

TEST_CASE("version: --version and version print the same two lines as version --json says") {
  TempDir dir;
  const nlohmann::json report = GentleAi({"version", "--json"}, dir.path()).Json();
  const std::string expected = ExpectedText(report);
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--version"}, {"version"}}) {
    RunResult run = GentleAi(args, dir.path());
    CHECK(run.exit_code == 0);
    CHECK(run.out == expected);
    CHECK(run.err.empty());
  }
}

TEST_CASE(
    "version: the installed binary answers --version with HOME unset and outside a repository") {
  TempDir dir;
  RunResult run = Run({"env", "-u", "HOME", GENTLE_AI_RELEASE_BIN, "--version"}, dir.path());
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.rfind(std::string("gentle-ai ") + GENTLE_PROJECT_VERSION, 0) == 0);
  CHECK(run.err.empty());
}

// glibc is linked shared (cli/CMakeLists.txt): with HOME unset libgit2 looks the user up through
// NSS, which a static glibc could only do with the system's modules of its own version.
TEST_CASE("version: the installed binary reviews a repository with HOME unset") {
  LifecycleRepo repo;
  repo.Write("a.txt", "changed\n");
  RunResult start = Run({"env", "-u", "HOME", GENTLE_AI_RELEASE_BIN, "review", "start", "--cwd",
                         repo.root(), "--json"});
  REQUIRE(start.exit_code == 0);
  CHECK(start.err.empty());
  const std::string lineage = start.Json()["lineage"].get<std::string>();
  RunResult status = Run({"env", "-u", "HOME", GENTLE_AI_RELEASE_BIN, "review", "status",
                          "--lineage", lineage, "--cwd", repo.root(), "--json"});
  REQUIRE(status.exit_code == 0);
  CHECK(status.Json()["lineages"][0]["state"] == "reviewing");
  RunResult needed = Run({"readelf", "-d", GENTLE_AI_RELEASE_BIN});
  REQUIRE(needed.exit_code == 0);
  CHECK(needed.out.find("Shared library: [libc.so.6]") != std::string::npos);
}

TEST_CASE("version: refuses what it does not take with usage") {
  TempDir dir;
  RunResult run = GentleAi({"version", "--json", "--cwd", "."}, dir.path());
  CHECK(run.exit_code == 2);
  CHECK(run.Json()["error"]["code"] == "usage");
  RunResult extra = GentleAi({"version", "extra"}, dir.path());
  CHECK(extra.exit_code == 2);
  CHECK(extra.err.rfind("gentle-ai: usage: ", 0) == 0);
}

}  // namespace
}  // namespace gentle::testing
