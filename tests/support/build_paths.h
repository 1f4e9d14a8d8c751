// Where this build tree keeps what the tests run: the test build's gentle-ai-test, the installed
// gentle-ai, and the build directory itself (generated man pages and completions, cmake --install).
//
// Test code is compiled with one command line in every build tree (the normal one and the
// sanitizer one), so a compiler cache (scripts/build.sh) serves the second tree the first tree's
// objects, and a second checkout (scripts/build.sh hashes paths relative to the checkout) serves
// itself from the first one's. Only tests/support/build_paths.cc knows which tree and checkout it
// is in; this header, which CMake includes ahead of every test source, turns the five names test
// code uses into calls to it.
#ifndef GENTLE_TESTS_SUPPORT_BUILD_PATHS_H_
#define GENTLE_TESTS_SUPPORT_BUILD_PATHS_H_

namespace gentle::testing {

const char* GentleAiTestPath();     // <build>/gentle-ai-test
const char* GentleAiReleasePath();  // <build>/gentle-ai
const char* BuildDirPath();         // <build>
const char* SourceDirPath();        // the checkout
const char* FixturesDirPath();      // <checkout>/fixtures

}  // namespace gentle::testing

#define GENTLE_AI_BIN (::gentle::testing::GentleAiTestPath())
#define GENTLE_AI_RELEASE_BIN (::gentle::testing::GentleAiReleasePath())
#define GENTLE_BUILD_DIR (::gentle::testing::BuildDirPath())
#define GENTLE_SOURCE_DIR (::gentle::testing::SourceDirPath())
#define GENTLE_FIXTURES_DIR (::gentle::testing::FixturesDirPath())

#endif  // GENTLE_TESTS_SUPPORT_BUILD_PATHS_H_
