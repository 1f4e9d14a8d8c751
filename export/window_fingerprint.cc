#include "export/window_fingerprint.h"

namespace gentle::exporter {
namespace {

// a * x mod P for a < 2^31.
uint32_t TimesX(uint32_t a) {
  uint32_t r = a << 1;
  if (r & 0x80000000u) r = (r & 0x7fffffff) ^ kFingerprintLowTerms;
  return r;
}

}  // namespace

WindowFingerprint::WindowFingerprint() {
  // x^31 mod P is the low terms; t * x^31 is built bit by bit.
  for (uint32_t t = 0; t < 256; ++t) {
    uint32_t acc = 0;
    uint32_t term = kFingerprintLowTerms;  // x^31 mod P
    for (int bit = 0; bit < 8; ++bit) {
      if (t & (1u << bit)) acc ^= term;
      term = TimesX(term);
    }
    reduce_[t] = acc;
  }
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t v = b;
    for (int i = 0; i < 8 * (kFingerprintWindow - 1); ++i) v = TimesX(v);
    drop_[b] = v;
  }
}

const WindowFingerprint& Fingerprinter() {
  static const WindowFingerprint kInstance;
  return kInstance;
}

}  // namespace gentle::exporter
