// Markdown as the tests that hold the docs read it (tests/section_citations_test.cc,
// tests/docs_current_test.cc): the lines outside ``` fences, a heading's title, and the bold
// run-in title that opens a paragraph or a list item ("**Title.** text", "- **Title** text").
#ifndef GENTLE_TESTS_SUPPORT_MARKDOWN_H_
#define GENTLE_TESTS_SUPPORT_MARKDOWN_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gentle::testing {

// Every line of `markdown` that is not a fence line or inside a fence.
std::vector<std::string> ProseLines(const std::string& markdown);

// "## Title" -> "Title" (one to six '#' and a space); nullopt for any other line.
std::optional<std::string> HeadingTitle(const std::string& line);

// The bold run-in title of a line that starts with "**" or "- **", up to `close` ("**", or ".**"
// for a title ending in a full stop); nullopt when the line has none.
std::optional<std::string> RunInTitle(const std::string& line, std::string_view close);

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_MARKDOWN_H_
