// The map follows the code: docs/design.md's dependency arrows (the lines "- `X/` → `Y/`, ..." of
// its "Source map") are exactly the links between the module folders' libraries that the build
// declares (target_link_libraries, read at configure time into <build>/link_graph.txt by
// tests/CMakeLists.txt). A link added without its arrow, or an arrow the build does not have,
// fails here.
#include <catch2/catch.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "tests/support/files.h"

namespace gentle::testing {
namespace {

using Arrows = std::set<std::pair<std::string, std::string>>;

// "store transaction" lines: folder, then a folder it links.
Arrows BuildArrows() {
  std::istringstream lines(ReadFile(std::string(GENTLE_BUILD_DIR) + "/link_graph.txt"));
  Arrows out;
  std::string from, to;
  while (lines >> from >> to) out.insert({from, to});
  return out;
}

// The "- `cli/` → `transaction/`, `export/`" lines of the "## Source map" section.
Arrows DesignArrows(const std::string& design) {
  const size_t start = design.find("\n## Source map\n");
  REQUIRE(start != std::string::npos);
  const size_t end = design.find("\n## ", start + 1);
  std::istringstream lines(design.substr(start, end - start));
  const std::regex arrow_line("^- `([a-z]+)/` → (.*)$");
  const std::regex folder("`([a-z]+)/`");
  Arrows out;
  std::string line;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, arrow_line)) continue;
    const std::string from = m[1];
    const std::string targets = m[2];
    for (std::sregex_iterator it(targets.begin(), targets.end(), folder), done; it != done; ++it) {
      out.insert({from, (*it)[1]});
    }
  }
  return out;
}

std::string Describe(const Arrows& arrows) {
  std::string out;
  for (const auto& [from, to] : arrows) out += from + "/ -> " + to + "/\n";
  return out;
}

TEST_CASE("design map: docs/design.md's arrows are the build's links between module folders") {
  const Arrows built = BuildArrows();
  const Arrows drawn = DesignArrows(ReadFile(std::string(GENTLE_SOURCE_DIR) + "/docs/design.md"));
  // The build's own graph is read, not empty: the CLI links the transaction folder.
  REQUIRE(built.count({"cli", "transaction"}) == 1);
  Arrows missing, extra;
  for (const auto& arrow : built) {
    if (drawn.count(arrow) == 0) missing.insert(arrow);
  }
  for (const auto& arrow : drawn) {
    if (built.count(arrow) == 0) extra.insert(arrow);
  }
  INFO("linked by the build, no arrow in docs/design.md:\n" << Describe(missing));
  INFO("arrows in docs/design.md the build does not link:\n" << Describe(extra));
  CHECK(missing.empty());
  CHECK(extra.empty());
}

}  // namespace
}  // namespace gentle::testing
