// Where this build tree keeps what the tests run: the test build's gentle-ai-test, the installed
// gentle-ai, and the build directory itself (generated man pages and completions, cmake --install).
//
// Test code is compiled with one command line in every build tree (the normal one and the
// sanitizer one), so a compiler cache (scripts/build.sh) serves the second tree the first tree's
// objects. Only tests/support/build_paths.cc knows which tree it is in; this header, which CMake
// includes ahead of every test source, turns the three names test code uses into calls to it.
// GENTLE_SOURCE_DIR and GENTLE_FIXTURES_DIR are the same in every tree and stay literals.
#ifndef GENTLE_TESTS_SUPPORT_BUILD_PATHS_H_
#define GENTLE_TESTS_SUPPORT_BUILD_PATHS_H_

namespace gentle::testing {

const char* GentleAiTestPath();     // <build>/gentle-ai-test
const char* GentleAiReleasePath();  // <build>/gentle-ai
const char* BuildDirPath();         // <build>

}  // namespace gentle::testing

#define GENTLE_AI_BIN (::gentle::testing::GentleAiTestPath())
#define GENTLE_AI_RELEASE_BIN (::gentle::testing::GentleAiReleasePath())
#define GENTLE_BUILD_DIR (::gentle::testing::BuildDirPath())

#endif  // GENTLE_TESTS_SUPPORT_BUILD_PATHS_H_
