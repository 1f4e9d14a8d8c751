// Samples for the sanitizer build's runs of the long sweeps.
//
// A sweep (every fault point of every mutation, every store call of a command) proves recovery in
// the normal build; in a sanitizer build (CTest sets GENTLE_SANITIZER_BUILD=1 there,
// tests/CMakeLists.txt) it runs a spread sample of the same cases, which still takes the recovery
// paths under AddressSanitizer and UBSan at a fraction of the time (docs/reliability.md,
// "Sanitizers").
#ifndef GENTLE_TESTS_SUPPORT_SANITIZER_SAMPLE_H_
#define GENTLE_TESTS_SUPPORT_SANITIZER_SAMPLE_H_

#include <cstddef>
#include <vector>

namespace gentle::testing {

// True when GENTLE_SANITIZER_BUILD=1.
bool SanitizerBuild();

// At most `limit` of `items`, spread evenly over them, the first and the last always included
// (all of them when there are no more than `limit`, or `limit` is below 2).
template <typename T>
std::vector<T> SpreadSample(const std::vector<T>& items, size_t limit) {
  if (items.size() <= limit || limit < 2) return items;
  std::vector<T> out;
  size_t last = items.size();
  for (size_t i = 0; i < limit; ++i) {
    const size_t at = (i * (items.size() - 1) + (limit - 1) / 2) / (limit - 1);
    if (at == last) continue;
    out.push_back(items[at]);
    last = at;
  }
  return out;
}

// `items` in the normal build; SpreadSample(items, limit) in a sanitizer build.
template <typename T>
std::vector<T> SanitizerSample(const std::vector<T>& items, size_t limit) {
  return SanitizerBuild() ? SpreadSample(items, limit) : items;
}

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_SANITIZER_SAMPLE_H_
