// The one translation unit that compiles Catch2's runner; every other test file only declares
// cases.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
