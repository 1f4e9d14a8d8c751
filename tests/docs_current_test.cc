// Reference docs state current facts (docs/development.md, "Documentation"). Over README.md and
// every Markdown page under docs/, outside code fences:
//   - no heading or bold run-in title carries an ISO date (YYYY-MM-DD): a measurement's date goes
//     in its text or table, once;
//   - none of the phrases that narrate how a figure or a behaviour moved ("previous build",
//     "this session", "after the fix", "until 2026-..." and the like; NarrationPhrases) appears,
//     compared case-insensitively with line breaks and runs of blanks as one space;
//   - the size of the test suite ("682 tests") is stated in README.md only, so no second copy of
//     it can disagree.
// Fixture data and generated pages are not read.
#include <catch2/catch.hpp>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/markdown.h"

namespace gentle::testing {
namespace {

namespace fs = std::filesystem;

struct Prose {
  std::vector<std::string> titles;  // headings and bold run-in titles
  std::string text;                 // every line outside fences, lower-case, blanks collapsed
};

Prose ReadProse(const std::string& markdown) {
  Prose out;
  for (const std::string& line : ProseLines(markdown)) {
    if (auto heading = HeadingTitle(line)) {
      out.titles.push_back(*heading);
    } else if (auto title = RunInTitle(line, "**")) {
      out.titles.push_back(*title);
    }
    for (char c : line) {
      const bool blank = c == ' ' || c == '\t' || c == '\r';
      if (blank) {
        if (!out.text.empty() && out.text.back() != ' ') out.text += ' ';
      } else {
        out.text += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
      }
    }
    if (!out.text.empty() && out.text.back() != ' ') out.text += ' ';
  }
  return out;
}

const std::regex& IsoDate() {
  static const std::regex date("(^|[^0-9])20[0-9][0-9]-[01][0-9]-[0-3][0-9]([^0-9]|$)");
  return date;
}

// Lower-case regular expressions over Prose::text. Each names a story of how something moved,
// which belongs in a commit message; none matches a statement of what is.
const std::vector<std::string>& NarrationPhrases() {
  static const std::vector<std::string> phrases = {
      "previous build",
      "the build before",
      "this session",
      "after the fix",
      "before the fix",
      "earlier runs?\\b",
      "(until|since|as of) 20[0-9][0-9]-[01][0-9]-[0-3][0-9]",
      "\\bwas (?:[^.;:()]|\\.[0-9]){1,40}, now\\b",
  };
  return phrases;
}

const std::regex& SuiteSize() {
  static const std::regex size("[0-9][0-9,]* tests\\b");
  return size;
}

// What `markdown` (the page `name`) breaks, one line each.
std::vector<std::string> Problems(const std::string& name, const std::string& markdown) {
  std::vector<std::string> out;
  const Prose prose = ReadProse(markdown);
  for (const std::string& title : prose.titles) {
    if (std::regex_search(title, IsoDate())) out.push_back(name + ": a dated title: " + title);
  }
  for (const std::string& phrase : NarrationPhrases()) {
    std::smatch m;
    if (std::regex_search(prose.text, m, std::regex(phrase))) {
      out.push_back(name + ": narration: \"" + m.str() + "\"");
    }
  }
  std::smatch m;
  if (name != "README.md" && std::regex_search(prose.text, m, SuiteSize())) {
    out.push_back(name + ": the suite's size, which README.md states: \"" + m.str() + "\"");
  }
  return out;
}

TEST_CASE("current docs: the checks find dated titles - narration and a second suite size") {
  // Built from pieces, so that no page of the tree reads as breaking its own rule.
  const std::string year = "20" + std::string("26");
  const std::string page =
      "# Speed (" + year + "-12-03)\n**Start (" + year + "-12-02).** text\n- **Item " + year +
      "-11-30.** text\n" + "The previous\nbuild took 2 s; this Session. Sped up " + "until " +
      year + "-12-06.\nIt was 1.3 ms, now 0.9 ms. " + "The suite (608 tests) ran.\n```\n# Fenced " +
      year + "-01-01\nafter the fix\n```\n";
  const std::vector<std::string> found = Problems("docs/x.md", page);
  const std::vector<std::string> expected = {
      "docs/x.md: a dated title: Speed (" + year + "-12-03)",
      "docs/x.md: a dated title: Start (" + year + "-12-02).",
      "docs/x.md: a dated title: Item " + year + "-11-30.",
      "docs/x.md: narration: \"previous build\"",
      "docs/x.md: narration: \"this session\"",
      "docs/x.md: narration: \"until " + year + "-12-06\"",
      "docs/x.md: narration: \"was 1.3 ms, now\"",
      "docs/x.md: the suite's size, which README.md states: \"608 tests\""};
  CHECK(found == expected);
  CHECK(Problems("README.md", "The suite (682 tests) took 11.9 minutes, measured " + year +
                                  "-12-06.\n## Install and run\n")
            .empty());
  // A date in a sentence or a table is a measurement's date, which a page keeps.
  CHECK(Problems("docs/x.md", "| a | 1.0 | " + year + "-12-06, idle |\nMeasured " + year +
                                  "-12-06: 3 s. A writer no longer waits once it is done.\n")
            .empty());
}

TEST_CASE("current docs: README and every docs page state what is - no dated title or narration") {
  const fs::path root(GENTLE_SOURCE_DIR);
  std::vector<fs::path> pages = {root / "README.md"};
  for (const auto& entry : fs::recursive_directory_iterator(root / "docs")) {
    if (entry.is_regular_file() && entry.path().extension() == ".md") pages.push_back(entry.path());
  }
  std::string problems;
  for (const fs::path& page : pages) {
    const std::string name = fs::relative(page, root).string();
    for (const std::string& p : Problems(name, ReadFile(page.string()))) problems += p + "\n";
  }
  INFO(problems);
  CHECK(problems.empty());
  CHECK(pages.size() > 10);  // the tree was read
}

}  // namespace
}  // namespace gentle::testing
