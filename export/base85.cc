#include "export/base85.h"

#include <algorithm>
#include <cstdint>

namespace gentle::exporter {
namespace {

constexpr std::string_view kAlphabet =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";
constexpr size_t kBytesPerLine = 52;

}  // namespace

std::string_view Base85Alphabet() { return kAlphabet; }

void AppendBase85Groups(std::string_view data, std::string* out) {
  for (size_t i = 0; i < data.size(); i += 4) {
    uint32_t group = 0;
    for (size_t k = 0; k < 4; ++k) {
      uint8_t byte = i + k < data.size() ? static_cast<uint8_t>(data[i + k]) : 0;
      group = (group << 8) | byte;
    }
    char digits[5];
    for (int d = 4; d >= 0; --d) {
      digits[d] = kAlphabet[group % 85];
      group /= 85;
    }
    out->append(digits, 5);
  }
}

void AppendBase85Lines(std::string_view data, std::string* out) {
  for (size_t pos = 0; pos < data.size(); pos += kBytesPerLine) {
    size_t n = std::min(kBytesPerLine, data.size() - pos);
    out->push_back(n <= 26 ? static_cast<char>('A' + n - 1) : static_cast<char>('a' + n - 27));
    AppendBase85Groups(data.substr(pos, n), out);
    out->push_back('\n');
  }
}

uint64_t Base85LinesSize(uint64_t n) {
  const uint64_t full = n / kBytesPerLine;
  const uint64_t rest = n % kBytesPerLine;
  // A full line: length char, 13 groups of 5 digits, newline.
  return full * (1 + kBytesPerLine / 4 * 5 + 1) + (rest == 0 ? 0 : 1 + (rest + 3) / 4 * 5 + 1);
}

}  // namespace gentle::exporter
