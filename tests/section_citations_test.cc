// The map follows the code: every in-repo section citation resolves. A citation is a doc's path
// (docs/X.md, or README / README.md for the top-level page), then `, "`, ` "`, ` ("` or `: "`,
// then one or more quoted section names joined by ", ", " and ", " or " or "/" - the forms
// comments, docs and JSON Schema descriptions use, also across a comment's line break (`//`, `#`,
// `*`) and with JSON's \" quotes. A section name resolves when it is one of the page's headings
// (outside code fences) or a paragraph's bold run-in title (`**Title.**`), compared without
// backticks and with runs of blanks as one space, or the start of one followed by ",", ":", " (" or
// " [" (so "review fsck" names "review fsck [--json]"). Every tracked kind of text file is read
// except build trees and fixture data.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/markdown.h"

namespace gentle::testing {
namespace {

namespace fs = std::filesystem;

// Backticks dropped, blanks collapsed, trimmed.
std::string NormalizeName(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '`') continue;
    const bool blank = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (blank) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// The section names of a Markdown page: headings outside fences and bold run-in titles.
std::vector<std::string> Sections(const std::string& markdown) {
  std::vector<std::string> out;
  for (const std::string& line : ProseLines(markdown)) {
    if (auto heading = HeadingTitle(line)) {
      out.push_back(NormalizeName(*heading));
    } else if (auto title = RunInTitle(line, ".**")) {
      out.push_back(NormalizeName(*title));
    }
  }
  return out;
}

bool Resolves(const std::string& name, const std::vector<std::string>& sections) {
  for (const std::string& section : sections) {
    if (section == name) return true;
    if (section.rfind(name, 0) != 0) continue;
    const std::string rest = section.substr(name.size());
    for (const char* follow : {",", ":", " (", " ["}) {
      if (rest.rfind(follow, 0) == 0) return true;
    }
  }
  return false;
}

// JSON's \" as ", and a line break with the next line's comment leader as one space.
std::string JoinLines(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '"') continue;
    if (text[i] != '\n') {
      out += text[i];
      continue;
    }
    size_t j = i + 1;
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
    if (text.compare(j, 2, "//") == 0) {
      while (j < text.size() && text[j] == '/') ++j;
    } else if (j < text.size() && (text[j] == '#' || text[j] == '*')) {
      const char leader = text[j];
      while (j < text.size() && text[j] == leader) ++j;
    }
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
    out += ' ';
    i = j - 1;
  }
  return out;
}

struct Citation {
  std::string page;  // "docs/loop.md", "README.md"
  std::string name;
};

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
         c == '_' || c == '.' || c == '-';
}

// The citations in `text` (a file's bytes).
std::vector<Citation> Citations(const std::string& raw) {
  const std::string text = JoinLines(raw);
  std::vector<Citation> out;
  for (size_t at = 0; at < text.size(); ++at) {
    if (at > 0 && IsNameChar(text[at - 1])) continue;
    std::string page;
    size_t q = at;
    if (text.compare(at, 5, "docs/") == 0) {
      q = at + 5;
      while (q < text.size() && ((text[q] >= 'a' && text[q] <= 'z') ||
                                 (text[q] >= '0' && text[q] <= '9') || text[q] == '-')) {
        ++q;
      }
      if (q == at + 5 || text.compare(q, 3, ".md") != 0) continue;
      q += 3;
      page = text.substr(at, q - at);
    } else if (text.compare(at, 6, "README") == 0) {
      q = at + 6;
      if (text.compare(q, 3, ".md") == 0) q += 3;
      page = "README.md";
    } else {
      continue;
    }
    if (q < text.size() && text[q] == '`') ++q;
    if (text.compare(q, 2, "'s") == 0) q += 2;
    bool opened = false;
    for (const char* lead : {", \"", " (\"", ": \"", " \""}) {
      const std::string_view l(lead);
      if (text.compare(q, l.size(), l) == 0) {
        q += l.size() - 1;  // at the opening quote
        opened = true;
        break;
      }
    }
    while (opened) {
      const size_t close = text.find('"', q + 1);
      if (close == std::string::npos || close - q > 160) break;
      out.push_back({page, NormalizeName(text.substr(q + 1, close - q - 1))});
      q = close + 1;
      opened = false;
      for (const char* join : {", \"", " and \"", " or \"", "/\""}) {
        const std::string_view j(join);
        if (text.compare(q, j.size(), j) == 0) {
          q += j.size() - 1;
          opened = true;
          break;
        }
      }
    }
  }
  return out;
}

bool Scanned(const fs::path& relative) {
  const std::string first = relative.begin()->string();
  if (first.rfind("build", 0) == 0 || first == ".git") return false;
  const std::string ext = relative.extension().string();
  if (first == "fixtures") return ext == ".md";
  const std::string name = relative.filename().string();
  return name == "CMakeLists.txt" || ext == ".cc" || ext == ".h" || ext == ".md" || ext == ".txt" ||
         ext == ".cmake" || ext == ".sh" || ext == ".py" || ext == ".json" || ext == ".service" ||
         ext == ".yml";
}

TEST_CASE("section citations: the scanner reads every form and refuses a name no page has") {
  // Built from pieces, so that this file holds no citation of its own to the scan below.
  const std::string docs = "docs/", readme = std::string("READ") + "ME";
  const std::string text = "// one (" + docs + "loop.md, \"review seen\") and " + docs +
                           "lifecycle.md \"review\n// fsck\"; " + docs +
                           "ci.md's \"A\", \"B\" and \"C\" " + readme + ", \\\"Quoted\\\" x";
  const std::vector<Citation> found = Citations(text);
  std::vector<std::string> names;
  for (const Citation& c : found) names.push_back(c.page + ": " + c.name);
  CHECK(names == std::vector<std::string>{"docs/loop.md: review seen",
                                          "docs/lifecycle.md: review fsck", "docs/ci.md: A",
                                          "docs/ci.md: B", "docs/ci.md: C", "README.md: Quoted"});
  const std::vector<std::string> sections =
      Sections("# Top\n\n```\n# not a heading\n```\n## `review fsck [--json]`\n**Run-in.** text\n");
  CHECK(sections == std::vector<std::string>{"Top", "review fsck [--json]", "Run-in"});
  CHECK(Resolves("review fsck", sections));
  CHECK(Resolves("Run-in", sections));
  CHECK_FALSE(Resolves("not a heading", sections));
  CHECK_FALSE(Resolves("review", sections));
  CHECK_FALSE(Resolves("Top level", sections));
}

TEST_CASE("section citations: every in-repo citation names a section of its page") {
  const fs::path root(GENTLE_SOURCE_DIR);
  std::map<std::string, std::vector<std::string>> pages;
  std::set<std::string> broken;
  int checked = 0;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    const fs::path relative = fs::relative(it->path(), root);
    if (it->is_directory()) {
      const std::string first = relative.begin()->string();
      if (first.rfind("build", 0) == 0 || first == ".git") it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file() || !Scanned(relative)) continue;
    for (const Citation& c : Citations(ReadFile(it->path().string()))) {
      ++checked;
      if (!pages.count(c.page)) {
        const fs::path page = root / c.page;
        pages[c.page] = fs::is_regular_file(page) ? Sections(ReadFile(page.string()))
                                                  : std::vector<std::string>{};
      }
      if (!Resolves(c.name, pages[c.page])) {
        broken.insert(relative.string() + ": " + c.page + ", \"" + c.name + "\"");
      }
    }
  }
  std::string list;
  for (const std::string& b : broken) list += b + "\n";
  INFO("citations naming no section:\n" << list);
  CHECK(broken.empty());
  CHECK(checked > 200);  // the tree was read
}

}  // namespace
}  // namespace gentle::testing
