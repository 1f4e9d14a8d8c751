#include "export/base64.h"

#include <catch2/catch.hpp>

namespace gentle::exporter {

TEST_CASE("base64 known answers (RFC 4648 section 10)") {
  CHECK(EncodeBase64("") == "");
  CHECK(EncodeBase64("f") == "Zg==");
  CHECK(EncodeBase64("fo") == "Zm8=");
  CHECK(EncodeBase64("foo") == "Zm9v");
  CHECK(EncodeBase64("foob") == "Zm9vYg==");
  CHECK(EncodeBase64("fooba") == "Zm9vYmE=");
  CHECK(EncodeBase64("foobar") == "Zm9vYmFy");
  CHECK(EncodeBase64(std::string("\xff\xfe", 2)) == "//4=");
  CHECK(DecodeCanonicalBase64("Zm9vYmE=") == std::optional<std::string>("fooba"));
  CHECK(DecodeCanonicalBase64("") == std::optional<std::string>(""));
}

TEST_CASE("non-canonical base64 is refused") {
  CHECK_FALSE(DecodeCanonicalBase64("Zh=="));      // unused bits set (canonical: Zg==)
  CHECK_FALSE(DecodeCanonicalBase64("Zm9="));      // canonical: Zm8=
  CHECK_FALSE(DecodeCanonicalBase64("Zg"));        // missing padding
  CHECK_FALSE(DecodeCanonicalBase64("Zg=\n"));     // whitespace
  CHECK_FALSE(DecodeCanonicalBase64("Z=g="));      // data after padding
  CHECK_FALSE(DecodeCanonicalBase64("Zm9v-A=="));  // URL alphabet
  CHECK_FALSE(DecodeCanonicalBase64("===="));
}

}  // namespace gentle::exporter
