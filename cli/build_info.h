// What this build is: the project version, set once in the top-level CMakeLists.txt, and `git
// describe` of the checkout it was built from. The definitions are generated at build time by
// cmake/BuildInfo.cmake (build_info.cc in the build directory).
#ifndef GENTLE_CLI_BUILD_INFO_H_
#define GENTLE_CLI_BUILD_INFO_H_

#include <string_view>

namespace gentle::cli {

// The project version, e.g. "0.1.0".
std::string_view ProjectVersion();

// `git describe --always --dirty --tags` of the source checkout at build time (e.g. "a4c2ac0" or
// "v0.1.0-3-g1234567-dirty"); empty when the build was not made from a git checkout.
std::string_view BuildDescribe();

}  // namespace gentle::cli

#endif  // GENTLE_CLI_BUILD_INFO_H_
