#include "export/path_quote.h"

namespace gentle::exporter {
namespace {

bool ByteNeedsQuoting(unsigned char c) {
  return c < 0x20 || c == 0x7f || c == '"' || c == '\\' || c >= 0x80;
}

void AppendEscaped(std::string_view s, std::string* out) {
  for (unsigned char c : s) {
    if (!ByteNeedsQuoting(c)) {
      out->push_back(static_cast<char>(c));
      continue;
    }
    out->push_back('\\');
    switch (c) {
      case '\a':
        out->push_back('a');
        break;
      case '\b':
        out->push_back('b');
        break;
      case '\t':
        out->push_back('t');
        break;
      case '\n':
        out->push_back('n');
        break;
      case '\v':
        out->push_back('v');
        break;
      case '\f':
        out->push_back('f');
        break;
      case '\r':
        out->push_back('r');
        break;
      case '"':
        out->push_back('"');
        break;
      case '\\':
        out->push_back('\\');
        break;
      default:
        out->push_back(static_cast<char>('0' + ((c >> 6) & 7)));
        out->push_back(static_cast<char>('0' + ((c >> 3) & 7)));
        out->push_back(static_cast<char>('0' + (c & 7)));
    }
  }
}

}  // namespace

bool PathNeedsQuoting(std::string_view name) {
  for (unsigned char c : name) {
    if (ByteNeedsQuoting(c)) return true;
  }
  return false;
}

void AppendQuotedPath(std::string_view prefix, std::string_view path, std::string* out) {
  if (!PathNeedsQuoting(prefix) && !PathNeedsQuoting(path)) {
    out->append(prefix);
    out->append(path);
    return;
  }
  out->push_back('"');
  AppendEscaped(prefix, out);
  AppendEscaped(path, out);
  out->push_back('"');
}

}  // namespace gentle::exporter
