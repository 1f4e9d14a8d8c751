#include "tests/support/git_env.h"

#include "tests/support/temp_dir.h"

namespace gentle::testing {

const Env& OracleEnv() {
  static const TempDir home;  // empty by construction; removed at exit, after `env` below
  static const Env env = {{"GIT_CONFIG_NOSYSTEM", "1"}, {"GIT_CONFIG_GLOBAL", "/dev/null"},
                          {"GIT_ATTR_NOSYSTEM", "1"},   {"LC_ALL", "C"},
                          {"HOME", home.path()},        {"GIT_TERMINAL_PROMPT", "0"}};
  return env;
}

const Env& GitEnv() {
  static const Env env = [] {
    Env e = OracleEnv();
    e.insert({{"GIT_AUTHOR_NAME", "Test"},
              {"GIT_AUTHOR_EMAIL", "test@example.com"},
              {"GIT_COMMITTER_NAME", "Test"},
              {"GIT_COMMITTER_EMAIL", "test@example.com"},
              {"GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z"},
              {"GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z"}});
    return e;
  }();
  return env;
}

}  // namespace gentle::testing
