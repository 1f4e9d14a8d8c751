#include "store/visible_text.h"

#include <cstdint>

namespace gentle::store {
namespace {

constexpr char kHex[] = "0123456789abcdef";

// The length of the well-formed UTF-8 sequence at the start of `text` (RFC 3629, table 3-7 of the
// Unicode standard) and its code point, or 0 when it is not one.
size_t Sequence(std::string_view text, uint32_t* code_point) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) {
    *code_point = lead;
    return 1;
  }
  size_t length = 0;
  unsigned char low = 0x80, high = 0xbf;  // the range of the second byte
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;   // no overlong form
    if (lead == 0xed) high = 0x9f;  // no surrogate
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;   // no overlong form
    if (lead == 0xf4) high = 0x8f;  // nothing past U+10FFFF
  } else {
    return 0;
  }
  if (text.size() < length || byte(1) < low || byte(1) > high) return 0;
  uint32_t value = lead & (0x7f >> length);
  for (size_t i = 1; i < length; ++i) {
    if (i > 1 && (byte(i) < 0x80 || byte(i) > 0xbf)) return 0;
    value = (value << 6) | (byte(i) & 0x3f);
  }
  *code_point = value;
  return length;
}

// Whether a well-formed code point is shown escaped: C1 controls and bidirectional controls.
bool Hidden(uint32_t c) {
  return (c >= 0x80 && c <= 0x9f) || c == 0x061c || c == 0x200e || c == 0x200f ||
         (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

// A byte VisibleText keeps unchanged on its own: printable ASCII, a newline or a tab.
bool IsPlain(unsigned char byte) {
  return (byte >= 0x20 && byte < 0x7f) || byte == '\n' || byte == '\t';
}

void AppendHex(uint32_t value, int digits, std::string* out) {
  for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4)
    out->push_back(kHex[(value >> shift) & 15]);
}

}  // namespace

std::string VisibleText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    // A run of printable ASCII, newlines and tabs (most text) is copied as it is, in one append.
    size_t end = i;
    while (end < text.size() && IsPlain(static_cast<unsigned char>(text[end]))) ++end;
    if (end > i) {
      out.append(text.substr(i, end - i));
      i = end;
      continue;
    }
    uint32_t c = 0;
    const size_t length = Sequence(text.substr(i), &c);
    if (length == 0) {
      out += "\\x";
      AppendHex(static_cast<unsigned char>(text[i]), 2, &out);
      ++i;
      continue;
    }
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
      out += '^';
      out += static_cast<char>(c ^ 0x40);
    } else if (Hidden(c)) {
      out += "\\u";
      AppendHex(c, 4, &out);
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

std::string VisibleLine(std::string_view text) {
  std::string line(text);
  for (char& c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return VisibleText(line);
}

}  // namespace gentle::store
