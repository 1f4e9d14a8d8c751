#include "tests/support/markdown.h"

#include <sstream>

namespace gentle::testing {

std::vector<std::string> ProseLines(const std::string& markdown) {
  std::vector<std::string> out;
  std::istringstream lines(markdown);
  std::string line;
  bool fenced = false;
  while (std::getline(lines, line)) {
    const size_t first = line.find_first_not_of(' ');
    if (first != std::string::npos && line.compare(first, 3, "```") == 0) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) out.push_back(line);
  }
  return out;
}

std::optional<std::string> HeadingTitle(const std::string& line) {
  size_t hashes = 0;
  while (hashes < line.size() && line[hashes] == '#') ++hashes;
  if (hashes < 1 || hashes > 6 || hashes >= line.size() || line[hashes] != ' ') {
    return std::nullopt;
  }
  return line.substr(hashes + 1);
}

std::optional<std::string> RunInTitle(const std::string& line, std::string_view close) {
  size_t bold = std::string::npos;
  if (line.rfind("**", 0) == 0) bold = 0;
  if (line.rfind("- **", 0) == 0) bold = 2;
  if (bold == std::string::npos) return std::nullopt;
  const size_t end = line.find(close, bold + 2);
  if (end == std::string::npos) return std::nullopt;
  return line.substr(bold + 2, end - bold - 2);
}

}  // namespace gentle::testing
