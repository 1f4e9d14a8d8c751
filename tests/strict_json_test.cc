// store/strict_json.h: the DOM equals nlohmann's own parse, and the three refusals (syntax,
// duplicate key, nesting) are reported with their detail, at the exact depth limit.
#include "store/strict_json.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "store/json_event_reader.h"

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

// Every SAX event as a line, for comparing two readers event by event.
class Recorder final : public nlohmann::json_sax<Json> {
 public:
  std::vector<std::string> events;
  bool null() override { return Add("null"); }
  bool boolean(bool v) override { return Add(v ? "true" : "false"); }
  bool number_integer(number_integer_t v) override { return Add("i:" + std::to_string(v)); }
  bool number_unsigned(number_unsigned_t v) override { return Add("u:" + std::to_string(v)); }
  bool number_float(number_float_t, const string_t& s) override { return Add("f:" + s); }
  bool string(string_t& v) override { return Add("s:" + v); }
  bool binary(binary_t&) override { return Add("binary"); }
  bool start_object(std::size_t) override { return Add("{"); }
  bool key(string_t& k) override { return Add("k:" + k); }
  bool end_object() override { return Add("}"); }
  bool start_array(std::size_t) override { return Add("["); }
  bool end_array() override { return Add("]"); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  bool Add(std::string event) {
    events.push_back(std::move(event));
    return true;
  }
};

// Random JSON texts of the kinds the store reads: nested objects and arrays, strings with
// escapes (short, \uXXXX in either case, surrogate pairs), raw UTF-8 and the odd invalid byte,
// integers of every length and, when `floats`, numbers with fractions and exponents; whitespace
// between tokens at random.
class TextMaker {
 public:
  explicit TextMaker(uint32_t seed) : gen_(seed) {}

  std::string Make(bool floats) {
    floats_ = floats;
    std::string out;
    Value(0, &out);
    return out;
  }

 private:
  size_t Below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(gen_); }

  void Space(std::string* out) {
    static const char* const kSpaces[] = {"", "", "", " ", "\n", "\t", "\r\n  "};
    *out += kSpaces[Below(7)];
  }

  void Hex4(uint32_t code, std::string* out) {
    static const char* const kCases[] = {"0123456789abcdef", "0123456789ABCDEF"};
    const char* digits = kCases[Below(2)];
    *out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) *out += digits[(code >> shift) & 15];
  }

  void String(std::string* out) {
    static const char* const kRaw[] = {"a",
                                       "Z",
                                       "/",
                                       " ",
                                       "~",
                                       "\x7f",
                                       "\xc3\xa9",
                                       "\xe2\x82\xac",
                                       "\xf0\x9f\x98\x80",
                                       "\xed\x9f\xbf",
                                       "\xef\xbf\xbf",
                                       "\xf4\x8f\xbf\xbf"};
    static const char* const kBad[] = {"\x80",     "\xc0\xaf", "\xed\xa0\x80", "\xf5\x80\x80\x80",
                                       "\xe2\x82", "\x01",     "\\x",          "\\u12"};
    *out += '"';
    const size_t n = Below(12);
    for (size_t i = 0; i < n; ++i) {
      switch (Below(10)) {
        case 0:
          *out += std::string("\\") + "\"\\/bfnrt"[Below(8)];
          break;
        case 1:
          Hex4(static_cast<uint32_t>(Below(0xD800)), out);
          break;
        case 2:
          Hex4(static_cast<uint32_t>(0xD800 + Below(0x400)), out);
          Hex4(static_cast<uint32_t>(0xDC00 + Below(0x400)), out);
          break;
        case 3:
          if (Below(20) == 0) {
            *out += kBad[Below(8)];
            break;
          }
          [[fallthrough]];
        default:
          *out += kRaw[Below(12)];
      }
    }
    *out += '"';
  }

  void Number(std::string* out) {
    if (Below(2)) *out += '-';
    const size_t digits = 1 + Below(Below(4) == 0 ? 21 : 6);
    *out += static_cast<char>('0' + (digits == 1 ? Below(10) : 1 + Below(9)));
    for (size_t i = 1; i < digits; ++i) *out += static_cast<char>('0' + Below(10));
    if (floats_ && Below(3) == 0) *out += "." + std::to_string(Below(1000));
    if (floats_ && Below(4) == 0)
      *out += "e" + std::string(Below(2) ? "-" : "") + std::to_string(Below(400));
  }

  void Value(int depth, std::string* out) {
    const size_t kind = depth >= 4 ? 2 + Below(4) : Below(6);
    switch (kind) {
      case 0: {
        *out += '{';
        const size_t n = Below(5);
        for (size_t i = 0; i < n; ++i) {
          if (i) *out += ',';
          Space(out);
          String(out);
          Space(out);
          *out += ':';
          Space(out);
          Value(depth + 1, out);
          Space(out);
        }
        *out += '}';
        break;
      }
      case 1: {
        *out += '[';
        const size_t n = Below(5);
        for (size_t i = 0; i < n; ++i) {
          if (i) *out += ',';
          Space(out);
          Value(depth + 1, out);
          Space(out);
        }
        *out += ']';
        break;
      }
      case 2:
        String(out);
        break;
      case 3:
        Number(out);
        break;
      default: {
        static const char* const kWords[] = {"true", "false", "null"};
        *out += kWords[Below(3)];
      }
    }
  }

  std::mt19937 gen_;
  bool floats_ = false;
};

// Whether ReadJsonEvents' answer agrees with nlohmann's on `text`: where it accepts, nlohmann
// accepts with the very same events. Returns whether it accepted.
bool AgreesWithNlohmann(const std::string& text) {
  Recorder fast;
  const bool accepted = ReadJsonEvents(text, &fast) == JsonEventResult::kAccepted;
  Recorder reference;
  const bool valid = Json::sax_parse(text, &reference);
  if (accepted) {
    INFO(text);
    CHECK(valid);
    CHECK(fast.events == reference.events);
  }
  return accepted;
}

TEST_CASE("ReadJsonEvents gives nlohmann's events - or leaves the text to nlohmann") {
  TextMaker maker(20261204);
  std::mt19937 damage(7);
  size_t accepted = 0, plain = 0, damaged_accepted = 0;
  for (int i = 0; i < 4000; ++i) {
    const bool floats = i % 4 == 0;
    const std::string text = maker.Make(floats);
    const bool ok = AgreesWithNlohmann(text);
    accepted += ok;
    // A text without floats, over-long numbers or bad bytes is the fast reader's own.
    const bool valid = Json::accept(text);
    if (!floats && valid) {
      bool long_number = false;
      size_t run = 0;
      for (char c : text) {
        run = (c >= '0' && c <= '9') ? run + 1 : 0;
        long_number |= run > 18;
      }
      if (!long_number) {
        ++plain;
        INFO(text);
        CHECK(ok);
      }
    }
    // Damaged copies: cut short, one byte replaced, one byte inserted.
    for (int d = 0; d < 6 && !text.empty(); ++d) {
      std::string bad = text;
      const size_t at = std::uniform_int_distribution<size_t>(0, bad.size() - 1)(damage);
      static const char kSignificant[] = "{}[]:,\"\\ 0-9eE.tfnu\x01\x80";
      const char c =
          kSignificant[std::uniform_int_distribution<size_t>(0, sizeof kSignificant - 2)(damage)];
      if (d % 3 == 0) bad.resize(at);
      if (d % 3 == 1) bad[at] = c;
      if (d % 3 == 2) bad.insert(bad.begin() + static_cast<std::ptrdiff_t>(at), c);
      damaged_accepted += AgreesWithNlohmann(bad);
    }
  }
  INFO("accepted " << accepted << ", plain " << plain << ", damaged accepted " << damaged_accepted);
  CHECK(plain > 1000);
  CHECK(accepted >= plain);
  CHECK(damaged_accepted > 0);
}

TEST_CASE("ReadJsonEvents leaves floats - long numbers - a BOM - and every error to nlohmann") {
  for (const char* text : {"1.5",
                           "1e3",
                           "-0.0",
                           "1234567890123456789",
                           "-1234567890123456789",
                           "\xef\xbb\xbf{}",
                           "",
                           " ",
                           "01",
                           "-",
                           "+1",
                           "[1,]",
                           "{\"a\":1,}",
                           "{\"a\" 1}",
                           "[1 2]",
                           "\"\\ud800\"",
                           "\"\\udc00\"",
                           "\"\\ud800\\u0041\"",
                           "\"\x01\"",
                           "\"\xc0\xaf\"",
                           "tru",
                           "nul",
                           "[",
                           "{}x",
                           "\"\\q\""}) {
    Recorder events;
    INFO(text);
    CHECK(ReadJsonEvents(text, &events) == JsonEventResult::kNotHandled);
  }
  // And takes what gentle-ai writes: escapes, surrogate pairs, 18-digit integers, -0.
  for (const char* text :
       {R"({"a":[0,-0,123456789012345678,-123456789012345678]})",
        R"("\u003c\u00e9\ud83d\ude00\/\b\f\n\r\t\"\\")", "\"\xf4\x8f\xbf\xbf\""}) {
    INFO(text);
    CHECK(AgreesWithNlohmann(text));
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
