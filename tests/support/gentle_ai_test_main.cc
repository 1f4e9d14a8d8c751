// Entry point of gentle-ai-test: the gentle-ai command line with the environment-driven test hooks
// installed (tests/support/env_test_hooks.h). Only the tests run it.
#include "cli/app.h"
#include "tests/support/env_test_hooks.h"

int main(int argc, char** argv) {
  gentle::testing::InstallEnvironmentTestHooks();
  return gentle::cli::RunProcess(argc, argv);
}
