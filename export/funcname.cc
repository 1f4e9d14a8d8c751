#include "export/funcname.h"

#include <cstring>

namespace gentle::exporter {
namespace {

constexpr size_t kMaxFuncname = 80;

bool IsFuncStart(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

bool IsGitSpace(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Length of the valid UTF-8 character at s[0], or 0 when it is invalid or truncated.
size_t Utf8CharLength(const unsigned char* s, size_t remaining) {
  unsigned char c = s[0];
  if (c < 0x80) return 1;
  size_t len;
  uint32_t cp;
  if ((c & 0xe0) == 0xc0) {
    len = 2;
    cp = c & 0x1f;
  } else if ((c & 0xf0) == 0xe0) {
    len = 3;
    cp = c & 0x0f;
  } else if ((c & 0xf8) == 0xf0) {
    len = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (remaining < len) return 0;
  for (size_t i = 1; i < len; ++i) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3f);
  }
  static constexpr uint32_t kMinForLength[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMinForLength[len]) return 0;       // overlong
  if (cp > 0x10ffff) return 0;                 // beyond Unicode
  if (cp >= 0xd800 && cp <= 0xdfff) return 0;  // surrogate
  if ((cp & 0xfffffe) == 0xfffe) return 0;     // U+FFFE, U+FFFF
  return len;
}

}  // namespace

bool DefaultFuncname(std::string_view line, std::string_view* text) {
  if (line.empty() || !IsFuncStart(static_cast<unsigned char>(line[0]))) return false;
  size_t len = line.size() < kMaxFuncname ? line.size() : kMaxFuncname;
  while (len > 0 && IsGitSpace(static_cast<unsigned char>(line[len - 1]))) --len;
  const auto* bytes = reinterpret_cast<const unsigned char*>(line.data());
  size_t valid = 0;
  while (valid < len) {
    size_t n = Utf8CharLength(bytes + valid, len - valid);
    if (n == 0) break;
    valid += n;
  }
  *text = line.substr(0, valid);
  return true;
}

void FuncnameTracker::IndexLines() {
  indexed_ = true;
  line_starts_.push_back(0);
  const char* base = data_.data();
  const char* end = base + data_.size();
  for (const char* p = base; p < end;) {
    const void* nl = std::memchr(p, '\n', static_cast<size_t>(end - p));
    if (nl == nullptr) break;
    p = static_cast<const char*>(nl) + 1;
    if (p < end) line_starts_.push_back(static_cast<size_t>(p - base));
  }
  if (data_.empty()) line_starts_.clear();
}

std::string_view FuncnameTracker::Line(int64_t index) const {
  size_t begin = line_starts_[static_cast<size_t>(index)];
  size_t end = static_cast<size_t>(index) + 1 < line_starts_.size()
                   ? line_starts_[static_cast<size_t>(index) + 1]
                   : data_.size();
  return data_.substr(begin, end - begin);
}

std::string_view FuncnameTracker::NextHunk(int64_t first_line) {
  if (!indexed_) IndexLines();
  const int64_t start = first_line - 1;
  const int64_t count = static_cast<int64_t>(line_starts_.size());
  for (int64_t l = start; l != previous_start_ && l >= 0 && l < count; --l) {
    std::string_view text;
    if (DefaultFuncname(Line(l), &text)) {
      current_ = text;
      break;
    }
  }
  previous_start_ = start;
  return current_;
}

}  // namespace gentle::exporter
