// Unit tests of the binary patch building blocks: base85 vectors worked out by hand from git's
// alphabet, the delta varint and op encodings, zlib framing, and the encoder's round trip.
#include <catch2/catch.hpp>
#include <random>
#include <string>

#include "export/base85.h"
#include "export/binary_patch.h"
#include "export/delta_ops.h"
#include "export/git_delta.h"
#include "export/zlib_deflate.h"
#include "tests/support/binary_patch_decode.h"

namespace gentle::exporter {
namespace {

std::string Groups(std::string_view data) {
  std::string out;
  AppendBase85Groups(data, &out);
  return out;
}

std::string Lines(std::string_view data) {
  std::string out;
  AppendBase85Lines(data, &out);
  return out;
}

std::string RandomBytes(std::mt19937_64& rng, size_t n) {
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

}  // namespace

TEST_CASE("base85 groups match hand-computed vectors") {
  CHECK(Groups(std::string(4, '\0')) == "00000");
  // 0xffffffff = 82*85^4 + 23*85^3 + 54*85^2 + 12*85 + 0 -> '|' 'N' 's' 'C' '0'.
  CHECK(Groups("\xff\xff\xff\xff") == "|NsC0");
  // 0x01000000 = 0*85^4 + 27*85^3 + 27*85^2 + 9*85 + 1.
  CHECK(Groups("\x01") == "0RR91");
  // git's zlib stream of empty content at level 1: 78 01 03 00 00 00 00 01.
  CHECK(Groups(std::string("\x78\x01\x03\x00\x00\x00\x00\x01", 8)) == "cmV?d00001");
}

TEST_CASE("base85 lines carry a length char and split at 52 bytes") {
  CHECK(Lines("") == "");
  CHECK(Lines("\x01") == "A0RR91\n");
  CHECK(Lines(std::string(26, '\0')).substr(0, 1) == "Z");
  CHECK(Lines(std::string(27, '\0')) == "a" + std::string(35, '0') + "\n");
  CHECK(Lines(std::string(52, '\0')) == "z" + std::string(65, '0') + "\n");
  CHECK(Lines(std::string(53, '\0')) == "z" + std::string(65, '0') + "\nA00000\n");
}

TEST_CASE("base85 round trips through the test decoder") {
  std::mt19937_64 rng(7);
  for (size_t n : {1u, 3u, 4u, 5u, 51u, 52u, 53u, 104u, 105u, 1000u}) {
    std::string data = RandomBytes(rng, n);
    auto decoded = testing::DecodeBase85Lines(Lines(data));
    REQUIRE(decoded.ok());
    CHECK(*decoded == data);
  }
}

TEST_CASE("delta varints are little-endian base 128") {
  auto enc = [](uint64_t v) {
    std::string s;
    AppendDeltaVarint(v, &s);
    return s;
  };
  CHECK(enc(0) == std::string(1, '\0'));
  CHECK(enc(127) == "\x7f");
  CHECK(enc(128) == "\x80\x01");
  CHECK(enc(300) == "\xac\x02");
  CHECK(enc(0x10000) == "\x80\x80\x04");
}

TEST_CASE("copy ops carry only non-zero offset and size bytes") {
  auto copy = [](uint64_t off, size_t size) {
    std::string s;
    AppendCopyOp(off, size, &s);
    return s;
  };
  CHECK(copy(0, 16) == "\x90\x10");
  CHECK(copy(0x100, 0x101) == "\xb2\x01\x01\x01");
  CHECK(copy(0x12345678, 0x10000) == "\x8f\x78\x56\x34\x12");
  CHECK(copy(0x01000000, 0xff00) == "\xa8\x01\xff");
  std::string ins;
  AppendInsertOp("abc", &ins);
  CHECK(ins ==
        "\x03"
        "abc");
}

TEST_CASE("ApplyDelta rejects malformed deltas") {
  CHECK(!ApplyDelta("abc", "").ok());
  CHECK(!ApplyDelta("abc", "\x03\x01\x00").ok());
  CHECK(!ApplyDelta("abc", "\x03\x05\x90\x05").ok());
  auto ok = ApplyDelta("abcdef", "\x06\x05\x91\x01\x03\x02xy");
  REQUIRE(ok.ok());
  CHECK(*ok == "bcdxy");
}

TEST_CASE("level-1 zlib streams start with 78 01 and inflate back") {
  auto z = DeflateZlib("", 1);
  REQUIRE(z.ok());
  CHECK(*z == std::string("\x78\x01\x03\x00\x00\x00\x00\x01", 8));
  std::mt19937_64 rng(3);
  std::string data = RandomBytes(rng, 100000) + std::string(50000, 'a');
  auto zz = DeflateZlib(data, 1);
  REQUIRE(zz.ok());
  CHECK(zz->substr(0, 2) == "\x78\x01");
  auto back = testing::InflateZlib(*zz);
  REQUIRE(back.ok());
  CHECK(*back == data);
}

TEST_CASE("encoded deltas rebuild the target and respect max_size") {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 200; ++round) {
    std::string src = RandomBytes(rng, 1 + rng() % 5000);
    std::string trg = src;
    for (int e = 0; e < 5; ++e) {
      size_t at = rng() % (trg.size() + 1);
      trg.insert(at, RandomBytes(rng, rng() % 40));
    }
    if (trg.empty()) trg = "x";
    auto delta = CreateGitDelta(src, trg, 0);
    REQUIRE(delta.has_value());
    auto rebuilt = ApplyDelta(src, *delta);
    REQUIRE(rebuilt.ok());
    CHECK(*rebuilt == trg);
    // The cap applies to the running size, which can exceed the final size by a pending insert
    // that a later copy's backward extension takes back (at most 127 bytes and a count byte).
    CHECK(CreateGitDelta(src, trg, delta->size() + 128) == delta);
    CHECK(!CreateGitDelta(src, trg, delta->size() - 1).has_value());
  }
  CHECK(!CreateGitDelta("", "abc", 0).has_value());
  CHECK(!CreateGitDelta("abc", "", 0).has_value());
}

TEST_CASE("an added or deleted file is a literal hunk against literal 0") {
  std::string out;
  REQUIRE(AppendBinaryPatch("", std::string("q\0r", 3), &out).ok());
  CHECK(out == "GIT binary patch\nliteral 3\nKcmXS9C;|Wh$N=O3\n\nliteral 0\nHcmV?d00001\n\n");
  out.clear();
  REQUIRE(AppendBinaryPatch(std::string("x\0y", 3), "", &out).ok());
  CHECK(out == "GIT binary patch\nliteral 0\nHcmV?d00001\n\nliteral 3\nKcmb<ms0083<N)#j\n\n");
}

}  // namespace gentle::exporter
