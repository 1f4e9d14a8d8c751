// The 31-bit fingerprint git's delta encoder gives a 16-byte window.
//
// Contract: Fingerprint(w) is the window read as a polynomial over GF(2) (w[0] the most significant
// byte, bit 7 the most significant bit) reduced modulo x^31 + kFingerprintLowTerms, a value below
// 2^31. Roll(fp, out, in) turns the fingerprint of w[0..15] into that of w[1..15]+in when out ==
// w[0]. The modulus was not taken from any git source: it was recovered by black-box probing of
// `git diff --binary` (which bucket a crafted window shares with a crowded bucket; see
// docs/binary-patch.md), then confirmed by differential testing.
#ifndef GENTLE_EXPORT_WINDOW_FINGERPRINT_H_
#define GENTLE_EXPORT_WINDOW_FINGERPRINT_H_

#include <cstdint>

namespace gentle::exporter {

inline constexpr uint32_t kFingerprintLowTerms = 0x2b59b4d1;
inline constexpr int kFingerprintWindow = 16;

class WindowFingerprint {
 public:
  WindowFingerprint();

  uint32_t Of(const unsigned char* window) const {
    uint32_t fp = 0;
    for (int i = 0; i < kFingerprintWindow; ++i) fp = Push(fp, window[i]);
    return fp;
  }

  uint32_t Roll(uint32_t fp, unsigned char out, unsigned char in) const {
    return Push(fp ^ drop_[out], in);
  }

 private:
  // fp * x^8 + in, reduced.
  uint32_t Push(uint32_t fp, unsigned char in) const {
    uint64_t shifted = (static_cast<uint64_t>(fp) << 8) | in;
    return static_cast<uint32_t>(shifted & 0x7fffffff) ^ reduce_[shifted >> 31];
  }

  uint32_t reduce_[256];  // t * x^31 mod P, for the 8 bits pushed above bit 30
  uint32_t drop_[256];    // b * x^120 mod P: the weight of the oldest byte of a window
};

// Shared immutable instance.
const WindowFingerprint& Fingerprinter();

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_WINDOW_FINGERPRINT_H_
