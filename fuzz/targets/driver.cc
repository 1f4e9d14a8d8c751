// The libFuzzer driver of one fuzz target: FUZZ_ENTRY names the entry function (fuzz/entries.h).
// A property the entry reports broken aborts, so libFuzzer saves the input as a crash.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "fuzz/entries.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string broken =
      gentle::fuzz::FUZZ_ENTRY(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!broken.empty()) {
    std::fprintf(stderr, "property broken: %s\n", broken.c_str());
    std::abort();
  }
  return 0;
}
