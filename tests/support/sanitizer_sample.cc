#include "tests/support/sanitizer_sample.h"

#include <cstdlib>
#include <string_view>

namespace gentle::testing {

bool SanitizerBuild() {
  const char* value = std::getenv("GENTLE_SANITIZER_BUILD");
  return value != nullptr && std::string_view(value) == "1";
}

}  // namespace gentle::testing
