// The one translation unit that compiles Catch2's runner; every other test file only declares
// cases. In-process code runs with the test build's hooks installed, as gentle-ai-test does.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "tests/support/env_test_hooks.h"

int main(int argc, char* argv[]) {
  gentle::testing::InstallEnvironmentTestHooks();
  return Catch::Session().run(argc, argv);
}
