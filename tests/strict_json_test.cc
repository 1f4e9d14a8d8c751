// store/strict_json.h: the DOM equals nlohmann's own parse, and the three refusals (syntax,
// duplicate key, nesting) are reported with their detail, at the exact depth limit.
#include "store/strict_json.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

namespace gentle::store {
namespace {

using Json = nlohmann::json;

std::string Nested(size_t arrays, const std::string& inner) {
  return std::string(arrays, '[') + inner + std::string(arrays, ']');
}

TEST_CASE("ParseStrictJson builds the same value as Json::parse") {
  const std::string text =
      R"({"a":[1,-2,3.5,1e300,18446744073709551615,true,false,null,"x\u00e9\n"],)"
      R"("b":{"c":{},"d":[],"e":[[{"f":"g"}]]},"":"empty key","h":"\ud83d\ude00"})";
  Json parsed;
  StrictJsonRefusal why;
  REQUIRE(ParseStrictJson(text, 64, &parsed, &why));
  CHECK(parsed == Json::parse(text));
  CHECK(parsed.dump() == Json::parse(text).dump());
  CHECK(parsed["a"][4].is_number_unsigned());
  CHECK(parsed["a"][1].is_number_integer());

  for (const char* scalar : {"0", "\"s\"", "null", "[]", "{}"}) {
    Json one;
    REQUIRE(ParseStrictJson(scalar, 64, &one, &why));
    CHECK(one == Json::parse(scalar));
  }
}

TEST_CASE("ParseStrictJson refuses a key twice in one object - at any depth") {
  Json parsed;
  StrictJsonRefusal why;
  CHECK_FALSE(ParseStrictJson(R"({"k":1,"k":1})", 64, &parsed, &why));
  CHECK(why.kind == StrictJsonRefusal::Kind::kDuplicateKey);
  CHECK(why.detail == "k");
  CHECK_FALSE(ParseStrictJson(R"({"a":[{"x":{"deep":1,"other":2,"deep":3}}]})", 64, &parsed, &why));
  CHECK(why.kind == StrictJsonRefusal::Kind::kDuplicateKey);
  CHECK(why.detail == "deep");
  // The same key in sibling or nested objects is not a duplicate.
  CHECK(ParseStrictJson(R"({"k":{"k":1},"j":[{"k":2},{"k":3}]})", 64, &parsed, &why));
  CHECK(parsed["j"][1]["k"] == 3);
}

TEST_CASE("ParseStrictJson allows exactly max_depth enclosing containers") {
  Json parsed;
  StrictJsonRefusal why;
  // A value inside 64 arrays is allowed; one inside 65 is not, nor an empty 65th array.
  CHECK(ParseStrictJson(Nested(64, "1"), 64, &parsed, &why));
  CHECK(ParseStrictJson(Nested(65, ""), 64, &parsed, &why));
  CHECK_FALSE(ParseStrictJson(Nested(65, "1"), 64, &parsed, &why));
  CHECK(why.kind == StrictJsonRefusal::Kind::kTooDeep);
  CHECK_FALSE(ParseStrictJson(Nested(66, ""), 64, &parsed, &why));
  CHECK(why.kind == StrictJsonRefusal::Kind::kTooDeep);
  CHECK_FALSE(ParseStrictJson(Nested(100000, ""), 64, &parsed, &why));
  CHECK(why.kind == StrictJsonRefusal::Kind::kTooDeep);
  // Objects count like arrays.
  std::string objects;
  for (int i = 0; i < 65; ++i) objects += "{\"o\":";
  objects += "1" + std::string(65, '}');
  CHECK_FALSE(ParseStrictJson(objects, 64, &parsed, &why));
  CHECK(why.kind == StrictJsonRefusal::Kind::kTooDeep);
  CHECK(ParseStrictJson(objects, 65, &parsed, &why));
}

TEST_CASE("ParseStrictJson reports syntax errors with nlohmann's message") {
  Json parsed;
  StrictJsonRefusal why;
  for (const char* bad : {"", "{", "{\"a\":1,}", "[1] [2]", "\"\xff\"", "{\"a\" 1}", "nul"}) {
    INFO(bad);
    CHECK_FALSE(ParseStrictJson(bad, 64, &parsed, &why));
    CHECK(why.kind == StrictJsonRefusal::Kind::kSyntax);
    CHECK(why.detail.rfind("[json.exception.parse_error.", 0) == 0);
  }
}

}  // namespace
}  // namespace gentle::store

namespace gentle::store {
namespace {

TEST_CASE("ParseStrictOrderedJson keeps document order and equals ordered_json::parse") {
  const std::string text =
      R"({"z":1,"a":{"y":[1,{"q":null,"b":2}],"c":"x"},"m":[],"":"empty key","b":-3.5})";
  nlohmann::ordered_json parsed;
  StrictJsonRefusal why;
  REQUIRE(ParseStrictOrderedJson(text, 64, &parsed, &why));
  CHECK(parsed == nlohmann::ordered_json::parse(text));
  CHECK(parsed.dump() == text);

  // Many members: every one kept, in order (the mutation path re-reads whole records this way).
  std::string many = "{";
  for (int i = 0; i < 20000; ++i) {
    many += (i ? ",\"k" : "\"k") + std::to_string(19999 - i) + "\":" + std::to_string(i);
  }
  many += "}";
  nlohmann::ordered_json big;
  REQUIRE(ParseStrictOrderedJson(many, 64, &big, &why));
  REQUIRE(big.size() == 20000);
  CHECK(big.dump() == many);
}

TEST_CASE("ParseStrictOrderedJson refuses a key twice - too deep - and bad syntax") {
  nlohmann::ordered_json parsed;
  StrictJsonRefusal why;
  CHECK_FALSE(ParseStrictOrderedJson(R"({"a":1,"b":{"c":1,"c":2}})", 64, &parsed, &why));
  CHECK(why.kind == StrictJsonRefusal::Kind::kDuplicateKey);
  CHECK(why.detail == "c");
  CHECK_FALSE(ParseStrictOrderedJson(R"({"a":1,"b":2,"a":3})", 64, &parsed, &why));
  CHECK(why.kind == StrictJsonRefusal::Kind::kDuplicateKey);
  CHECK(why.detail == "a");
  // The same key in sibling objects is no duplicate.
  CHECK(ParseStrictOrderedJson(R"([{"a":1},{"a":2}])", 64, &parsed, &why));
  CHECK_FALSE(ParseStrictOrderedJson(std::string(4, '[') + std::string(4, ']'), 2, &parsed, &why));
  CHECK(why.kind == StrictJsonRefusal::Kind::kTooDeep);
  CHECK_FALSE(ParseStrictOrderedJson(R"({"a":1} x)", 64, &parsed, &why));
  CHECK(why.kind == StrictJsonRefusal::Kind::kSyntax);
}

}  // namespace
}  // namespace gentle::store
