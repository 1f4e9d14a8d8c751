// The one test source compiled with this build tree's and this checkout's paths
// (tests/CMakeLists.txt).
#include "tests/support/build_paths.h"

namespace gentle::testing {

const char* GentleAiTestPath() { return GENTLE_BUILD_PATHS_AI_TEST; }
const char* GentleAiReleasePath() { return GENTLE_BUILD_PATHS_AI_RELEASE; }
const char* BuildDirPath() { return GENTLE_BUILD_PATHS_DIR; }
const char* SourceDirPath() { return GENTLE_BUILD_PATHS_SOURCE; }
const char* FixturesDirPath() { return GENTLE_BUILD_PATHS_SOURCE "/fixtures"; }

}  // namespace gentle::testing
