#include "store/go_json.h"

#include <cstdint>

namespace gentle::store {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void AppendUnicodeEscape(uint32_t unit, std::string* out) {
  out->append("\\u");
  for (int shift = 12; shift >= 0; shift -= 4) out->push_back(kHex[(unit >> shift) & 0xf]);
}

// Decodes one UTF-8 sequence at text[i]; returns its length, or 0 when it is invalid
// (overlong, surrogate, above U+10FFFF, truncated), as Go's utf8.DecodeRuneInString judges.
size_t DecodeUtf8(std::string_view text, size_t i, uint32_t* rune) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char c = byte(i);
  size_t length;
  uint32_t min;
  if (c < 0x80) {
    *rune = c;
    return 1;
  } else if ((c & 0xe0) == 0xc0) {
    length = 2, min = 0x80, *rune = c & 0x1f;
  } else if ((c & 0xf0) == 0xe0) {
    length = 3, min = 0x800, *rune = c & 0x0f;
  } else if ((c & 0xf8) == 0xf0) {
    length = 4, min = 0x10000, *rune = c & 0x07;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
    *rune = (*rune << 6) | (byte(i + k) & 0x3f);
  }
  if (*rune < min || *rune > 0x10ffff || (*rune >= 0xd800 && *rune <= 0xdfff)) return 0;
  return length;
}

}  // namespace

std::string QuoteGoString(std::string_view value) {
  std::string out;
  out.reserve(value.size() + 2);
  out.push_back('"');
  for (size_t i = 0; i < value.size();) {
    unsigned char c = static_cast<unsigned char>(value[i]);
    if (c < 0x80) {
      switch (c) {
        case '"':
          out.append("\\\"");
          break;
        case '\\':
          out.append("\\\\");
          break;
        case '\n':
          out.append("\\n");
          break;
        case '\r':
          out.append("\\r");
          break;
        case '\t':
          out.append("\\t");
          break;
        case '\b':
          out.append("\\b");
          break;
        case '\f':
          out.append("\\f");
          break;
        case '<':
        case '>':
        case '&':
          AppendUnicodeEscape(c, &out);
          break;
        default:
          if (c < 0x20) {
            AppendUnicodeEscape(c, &out);
          } else {
            out.push_back(static_cast<char>(c));
          }
      }
      ++i;
      continue;
    }
    uint32_t rune = 0;
    size_t length = DecodeUtf8(value, i, &rune);
    if (length == 0) {
      out.append("\\ufffd");
      ++i;
    } else if (rune == 0x2028 || rune == 0x2029) {
      AppendUnicodeEscape(rune, &out);
      i += length;
    } else {
      out.append(value.substr(i, length));
      i += length;
    }
  }
  out.push_back('"');
  return out;
}

bool IsValidUtf8(std::string_view value) {
  for (size_t i = 0; i < value.size();) {
    uint32_t rune = 0;
    size_t length = DecodeUtf8(value, i, &rune);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

std::string CompactJson(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end) {
    // Outside strings: whitespace is dropped, every other byte kept.
    const char c = *p++;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    out.push_back(c);
    if (c != '"') continue;
    // A string is kept whole, through its closing quote; a backslash carries the next byte.
    const char* run = p;
    while (p < end && *p != '"') p += (*p == '\\' && p + 1 < end) ? 2 : 1;
    if (p < end) ++p;
    out.append(run, p);
  }
  return out;
}

}  // namespace gentle::store
