// ReadJsonEvents: a JSON reader for the common case, driving an nlohmann SAX handler with the
// events nlohmann's own parser would give it, several times faster than nlohmann's lexer (which
// reads a character at a time through an input adapter and copies each into a token buffer).
// store/strict_json.cc reads every record, envelope, tombstone and audit record through it.
//
// Contract: kAccepted means `text` is one JSON value (RFC 8259, nothing but whitespace around it)
// and the handler took every event, in the order and with the values nlohmann::json::sax_parse
// gives it (object keys and strings UTF-8 checked as nlohmann checks them, `\u` escapes and
// surrogate pairs decoded, a non-negative integer as number_unsigned, a negative one as
// number_integer). kNotHandled means anything else: a syntax error, a handler that said no, or a
// text this reader leaves to nlohmann (a number with a fraction, an exponent or more than 18
// digits; a byte-order mark). The caller then parses the text again with nlohmann from the start,
// so every refusal and every rarer value is nlohmann's own: this reader can only be faster, never
// more lenient. tests/strict_json_test.cc compares the two on generated and damaged texts.
#ifndef GENTLE_STORE_JSON_EVENT_READER_H_
#define GENTLE_STORE_JSON_EVENT_READER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gentle::store {

enum class JsonEventResult { kAccepted, kNotHandled };

namespace json_event_detail {

inline bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

inline int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The length of the well-formed UTF-8 sequence (Unicode Table 3-7) starting at s[0] (a byte of
// 0x80 or more), or 0.
inline size_t Utf8Length(const unsigned char* s, const unsigned char* end) {
  auto in = [&](size_t i, unsigned lo, unsigned hi) {
    return s + i < end && s[i] >= lo && s[i] <= hi;
  };
  const unsigned char c = s[0];
  if (c >= 0xC2 && c <= 0xDF) return in(1, 0x80, 0xBF) ? 2 : 0;
  if (c == 0xE0) return in(1, 0xA0, 0xBF) && in(2, 0x80, 0xBF) ? 3 : 0;
  if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) {
    return in(1, 0x80, 0xBF) && in(2, 0x80, 0xBF) ? 3 : 0;
  }
  if (c == 0xED) return in(1, 0x80, 0x9F) && in(2, 0x80, 0xBF) ? 3 : 0;
  if (c == 0xF0) return in(1, 0x90, 0xBF) && in(2, 0x80, 0xBF) && in(3, 0x80, 0xBF) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) {
    return in(1, 0x80, 0xBF) && in(2, 0x80, 0xBF) && in(3, 0x80, 0xBF) ? 4 : 0;
  }
  if (c == 0xF4) return in(1, 0x80, 0x8F) && in(2, 0x80, 0xBF) && in(3, 0x80, 0xBF) ? 4 : 0;
  return 0;
}

inline void AppendUtf8(uint32_t code, std::string* out) {
  if (code < 0x80) {
    out->push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (code >> 6)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else if (code < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (code >> 12)));
    out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (code >> 18)));
    out->push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
  }
}

template <typename Sax>
class Reader {
 public:
  Reader(std::string_view text, Sax* sax)
      : p_(text.data()), end_(text.data() + text.size()), sax_(sax) {}

  bool Document() {
    SkipSpace();
    if (p_ < end_ && static_cast<unsigned char>(*p_) == 0xEF) return false;  // a BOM: nlohmann's
    if (!Value(0)) return false;
    SkipSpace();
    return p_ == end_;
  }

 private:
  // Containers open around the value being read; nlohmann's recursion has no limit of its own,
  // but the handler refuses depth, so this bound is only a guard for this reader's stack.
  static constexpr size_t kMaxNesting = 4096;

  void SkipSpace() {
    while (p_ < end_ && IsSpace(*p_)) ++p_;
  }

  bool Literal(std::string_view word) {
    if (static_cast<size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) {
      return false;
    }
    p_ += word.size();
    return true;
  }

  bool Value(size_t nesting) {
    if (p_ == end_) return false;
    switch (*p_) {
      case '{':
        return Object(nesting);
      case '[':
        return Array(nesting);
      case '"': {
        std::string value;
        return String(&value) && sax_->string(value);
      }
      case 't':
        return Literal("true") && sax_->boolean(true);
      case 'f':
        return Literal("false") && sax_->boolean(false);
      case 'n':
        return Literal("null") && sax_->null();
      default:
        return Number();
    }
  }

  bool Object(size_t nesting) {
    if (nesting >= kMaxNesting) return false;
    ++p_;  // '{'
    if (!sax_->start_object(static_cast<size_t>(-1))) return false;
    SkipSpace();
    if (p_ < end_ && *p_ == '}') {
      ++p_;
      return sax_->end_object();
    }
    for (;;) {
      if (p_ == end_ || *p_ != '"') return false;
      std::string key;
      if (!String(&key) || !sax_->key(key)) return false;
      SkipSpace();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      SkipSpace();
      if (!Value(nesting + 1)) return false;
      SkipSpace();
      if (p_ == end_) return false;
      if (*p_ == '}') {
        ++p_;
        return sax_->end_object();
      }
      if (*p_ != ',') return false;
      ++p_;
      SkipSpace();
    }
  }

  bool Array(size_t nesting) {
    if (nesting >= kMaxNesting) return false;
    ++p_;  // '['
    if (!sax_->start_array(static_cast<size_t>(-1))) return false;
    SkipSpace();
    if (p_ < end_ && *p_ == ']') {
      ++p_;
      return sax_->end_array();
    }
    for (;;) {
      if (!Value(nesting + 1)) return false;
      SkipSpace();
      if (p_ == end_) return false;
      if (*p_ == ']') {
        ++p_;
        return sax_->end_array();
      }
      if (*p_ != ',') return false;
      ++p_;
      SkipSpace();
    }
  }

  // -?(0|[1-9][0-9]*) of at most 18 digits, so it fits either kind; anything longer, or with a
  // fraction or an exponent, is left to nlohmann.
  bool Number() {
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    const char* digits = p_;
    while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    const size_t count = static_cast<size_t>(p_ - digits);
    if (count == 0 || count > 18 || (count > 1 && *digits == '0')) return false;
    if (p_ < end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E')) return false;
    uint64_t value = 0;
    for (const char* d = digits; d < p_; ++d) value = value * 10 + static_cast<uint64_t>(*d - '0');
    if (negative) return sax_->number_integer(-static_cast<int64_t>(value));
    return sax_->number_unsigned(value);
  }

  // Four hex digits after "\u", or -1.
  int32_t Hex4() {
    if (end_ - p_ < 4) return -1;
    int32_t code = 0;
    for (int i = 0; i < 4; ++i) {
      const int digit = HexValue(p_[i]);
      if (digit < 0) return -1;
      code = code * 16 + digit;
    }
    p_ += 4;
    return code;
  }

  bool Escape(std::string* out) {
    if (p_ == end_) return false;
    const char c = *p_++;
    switch (c) {
      case '"':
      case '\\':
      case '/':
        out->push_back(c);
        return true;
      case 'b':
        out->push_back('\b');
        return true;
      case 'f':
        out->push_back('\f');
        return true;
      case 'n':
        out->push_back('\n');
        return true;
      case 'r':
        out->push_back('\r');
        return true;
      case 't':
        out->push_back('\t');
        return true;
      case 'u':
        break;
      default:
        return false;
    }
    const int32_t first = Hex4();
    if (first < 0) return false;
    if (first >= 0xDC00 && first <= 0xDFFF) return false;  // a low surrogate alone
    if (first < 0xD800 || first > 0xDBFF) {
      AppendUtf8(static_cast<uint32_t>(first), out);
      return true;
    }
    if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
    p_ += 2;
    const int32_t second = Hex4();
    if (second < 0xDC00 || second > 0xDFFF) return false;
    AppendUtf8(0x10000 + ((static_cast<uint32_t>(first) - 0xD800) << 10) +
                   (static_cast<uint32_t>(second) - 0xDC00),
               out);
    return true;
  }

  bool String(std::string* out) {
    ++p_;  // '"'
    for (;;) {
      const char* run = p_;
      while (p_ < end_) {
        const unsigned char c = static_cast<unsigned char>(*p_);
        if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80) break;
        ++p_;
      }
      out->append(run, static_cast<size_t>(p_ - run));
      if (p_ == end_) return false;
      const unsigned char c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        return true;
      }
      if (c < 0x20) return false;
      if (c == '\\') {
        ++p_;
        if (!Escape(out)) return false;
        continue;
      }
      const size_t n = Utf8Length(reinterpret_cast<const unsigned char*>(p_),
                                  reinterpret_cast<const unsigned char*>(end_));
      if (n == 0) return false;
      out->append(p_, n);
      p_ += n;
    }
  }

  const char* p_;
  const char* const end_;
  Sax* const sax_;
};

}  // namespace json_event_detail

template <typename Sax>
JsonEventResult ReadJsonEvents(std::string_view text, Sax* sax) {
  json_event_detail::Reader<Sax> reader(text, sax);
  return reader.Document() ? JsonEventResult::kAccepted : JsonEventResult::kNotHandled;
}

}  // namespace gentle::store

#endif  // GENTLE_STORE_JSON_EVENT_READER_H_
