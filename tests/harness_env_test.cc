// The harness's environment (loop/harness_env.h; docs/loop.md, "The harness's environment"): the
// session id a comment's marker takes from $CLAUDE_CODE_SESSION_ID or $PI_SESSION_ID, and a
// variable missing from the environment read from ~/.env.claude as data (never executed), from
// a bounded regular file only.
#include "loop/harness_env.h"

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "tests/support/files.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

constexpr char kKey[] = "GENTLE_TEST_ENV_FILE_KEY";  // set nowhere but in these files

std::string Value(const std::string& text, const char* key = kKey) {
  return loop::EnvFileValue(text, key).value_or("<unset>");
}

}  // namespace

TEST_CASE("harness env: .env.claude lines - export and quotes and comments - the last one wins") {
  CHECK(Value("GENTLE_TEST_ENV_FILE_KEY=plain\n") == "plain");
  CHECK(Value("export GENTLE_TEST_ENV_FILE_KEY=\"double quoted\"\n") == "double quoted");
  CHECK(Value("  export\tGENTLE_TEST_ENV_FILE_KEY='single'  \r\n") == "single");
  CHECK(Value("# GENTLE_TEST_ENV_FILE_KEY=commented\n") == "<unset>");
  CHECK(Value("OTHER=1\nGENTLE_TEST_ENV_FILE_KEY_LONGER=2\n") == "<unset>");
  CHECK(Value("GENTLE_TEST_ENV_FILE_KEY=one\nGENTLE_TEST_ENV_FILE_KEY=two") == "two");
  CHECK(Value("GENTLE_TEST_ENV_FILE_KEY=\"unbalanced'\n") == "\"unbalanced'");
  CHECK(Value("GENTLE_TEST_ENV_FILE_KEY=a=b\n") == "a=b");
  CHECK(Value("GENTLE_TEST_ENV_FILE_KEY=\n") == "");
  // Data, never a shell: nothing is expanded or run.
  CHECK(Value("GENTLE_TEST_ENV_FILE_KEY=$(touch /tmp/x)`id`$HOME\n") == "$(touch /tmp/x)`id`$HOME");
}

TEST_CASE("harness env: the environment first - then a bounded regular .env.claude in HOME only") {
  TempDir home;
  const std::string file = home.path() + "/.env.claude";
  ::unsetenv(kKey);
  CHECK(loop::EnvOrEnvFile(kKey, home.path().c_str()) == "");  // no file
  WriteFile(file, "export GENTLE_TEST_ENV_FILE_KEY=\"from-file\"\n");
  CHECK(loop::EnvOrEnvFile(kKey, home.path().c_str()) == "from-file");
  ::setenv(kKey, "from-env", 1);
  CHECK(loop::EnvOrEnvFile(kKey, home.path().c_str()) == "from-env");
  ::setenv(kKey, "", 1);  // set but empty: missing
  CHECK(loop::EnvOrEnvFile(kKey, home.path().c_str()) == "from-file");
  ::unsetenv(kKey);
  // Over the bound: not read (never truncated).
  WriteFile(file, "GENTLE_TEST_ENV_FILE_KEY=big\n" + std::string(loop::kMaxEnvFileBytes, '#'));
  CHECK(loop::EnvOrEnvFile(kKey, home.path().c_str()) == "");
  // A symlink to a good file is not followed; a FIFO is not waited on; a directory is not read.
  WriteFile(home.path() + "/real", "GENTLE_TEST_ENV_FILE_KEY=linked\n");
  ::unlink(file.c_str());
  REQUIRE(::symlink((home.path() + "/real").c_str(), file.c_str()) == 0);
  CHECK(loop::EnvOrEnvFile(kKey, home.path().c_str()) == "");
  ::unlink(file.c_str());
  REQUIRE(::mkfifo(file.c_str(), 0600) == 0);
  CHECK(loop::EnvOrEnvFile(kKey, home.path().c_str()) == "");
  ::unlink(file.c_str());
  REQUIRE(::mkdir(file.c_str(), 0700) == 0);
  CHECK(loop::EnvOrEnvFile(kKey, home.path().c_str()) == "");
}

TEST_CASE("harness env: review comment's session defaults to the harness's session id") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  repo.ReviewOk({"verdict", "--lineage", lineage, "--verdict", "REQUEST_CHANGES", "--actor", "ana",
                 "--role", "reviewer", "--body", "Not yet.\n"});
  auto marker = [&](const Env& env, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"comment", "--lineage", lineage};
    args.insert(args.end(), extra.begin(), extra.end());
    RunResult r = repo.Review(args, env, false);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return r.out.substr(r.out.rfind("<!--"));
  };
  const std::string bare = "<!-- gentle-ai:review lineage=" + lineage + " round=1 revision=";
  const Env none = {{"CLAUDE_CODE_SESSION_ID", ""}, {"PI_SESSION_ID", ""}};
  CHECK(marker(none).find(" session=") == std::string::npos);
  CHECK(marker({{"CLAUDE_CODE_SESSION_ID", "0123456789abcdef"}, {"PI_SESSION_ID", "pi-987654321"}})
            .find(" session=01234567 -->") != std::string::npos);
  CHECK(marker({{"CLAUDE_CODE_SESSION_ID", ""}, {"PI_SESSION_ID", "pi-987654321"}})
            .find(" session=pi-98765 -->") != std::string::npos);
  // --session wins over the environment.
  CHECK(marker({{"CLAUDE_CODE_SESSION_ID", "0123456789abcdef"}}, {"--session", "given"})
            .find(" session=given -->") != std::string::npos);
  CHECK(marker(none).rfind(bare, 0) == 0);
}

}  // namespace gentle::testing
