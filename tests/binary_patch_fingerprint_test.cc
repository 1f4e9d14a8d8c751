// Unit tests of the window fingerprint: facts that follow from it being a polynomial remainder
// modulo x^31 + 0x2b59b4d1, and that rolling agrees with computing from scratch.
#include <catch2/catch.hpp>
#include <random>

#include "export/window_fingerprint.h"

namespace gentle::exporter {

TEST_CASE("a window below 2^31 as an integer is its own fingerprint") {
  const WindowFingerprint& fp = Fingerprinter();
  unsigned char w[16] = {};
  CHECK(fp.Of(w) == 0);
  w[15] = 0x01;
  CHECK(fp.Of(w) == 1u);
  w[12] = 0x7f;
  w[13] = 0x12;
  w[14] = 0x34;
  CHECK(fp.Of(w) == 0x7f123401u);
}

TEST_CASE("x^31 reduces to the low terms and x^32 shifts them once") {
  const WindowFingerprint& fp = Fingerprinter();
  unsigned char w[16] = {};
  w[12] = 0x80;  // bit 31 of the window polynomial
  CHECK(fp.Of(w) == kFingerprintLowTerms);
  w[12] = 0;
  w[11] = 0x01;  // bit 32: x * (x^31 mod P); bit 30 of 0x2b59b4d1 is 0, so no further reduction
  CHECK(fp.Of(w) == (kFingerprintLowTerms << 1));
}

TEST_CASE("fingerprints are linear in the window") {
  const WindowFingerprint& fp = Fingerprinter();
  std::mt19937 rng(5);
  for (int round = 0; round < 100; ++round) {
    unsigned char a[16], b[16], x[16];
    for (int i = 0; i < 16; ++i) {
      a[i] = static_cast<unsigned char>(rng());
      b[i] = static_cast<unsigned char>(rng());
      x[i] = a[i] ^ b[i];
    }
    CHECK(fp.Of(x) == (fp.Of(a) ^ fp.Of(b)));
    CHECK(fp.Of(a) < 0x80000000u);
  }
}

TEST_CASE("rolling the window equals fingerprinting it afresh") {
  const WindowFingerprint& fp = Fingerprinter();
  std::mt19937 rng(9);
  std::vector<unsigned char> data(5000);
  for (auto& c : data) c = static_cast<unsigned char>(rng() % 4 == 0 ? 0 : rng());
  uint32_t rolling = fp.Of(data.data());
  for (size_t start = 1; start + 16 <= data.size(); ++start) {
    rolling = fp.Roll(rolling, data[start - 1], data[start + 15]);
    REQUIRE(rolling == fp.Of(data.data() + start));
  }
}

}  // namespace gentle::exporter
