// FuncnameTracker: the function text git prints after a hunk's "@@ ... @@" with no diff driver.
//
// Computed from the OLD side only. For each hunk (in order) the search runs backwards from the line
// before the hunk's first old line, stopping before the line where the previous hunk's search
// started; if nothing matches, the previous hunk's text is carried forward. A line matches when its
// first byte is an ASCII letter, '_' or '$'. The text is the line cut to 80 bytes (newline
// included), then stripped of trailing ' ', '\t', '\r', '\n' (not '\f'/'\v'), then cut at the first
// byte that does not start a valid UTF-8 character (overlongs, surrogates, U+FFFE/U+FFFF and code
// points above U+10FFFF are invalid); whitespace exposed by that last cut is kept.
#ifndef GENTLE_EXPORT_FUNCNAME_H_
#define GENTLE_EXPORT_FUNCNAME_H_

#include <cstdint>
#include <string_view>
#include <vector>

namespace gentle::exporter {

class FuncnameTracker {
 public:
  // `old_data` must outlive the tracker.
  explicit FuncnameTracker(std::string_view old_data) : data_(old_data) {}

  // Returns the function text for the next hunk, whose first old line is `first_line` (0-based).
  // The view points into old_data.
  std::string_view NextHunk(int64_t first_line);

 private:
  void IndexLines();
  std::string_view Line(int64_t index) const;

  std::string_view data_;
  std::vector<size_t> line_starts_;  // built lazily on the first hunk
  bool indexed_ = false;
  int64_t previous_start_ = -1;
  std::string_view current_;
};

// The function text of one line per git's default rule, or nullopt-like empty view with `matched`
// false when the line is not a function line. Exposed for tests.
bool DefaultFuncname(std::string_view line, std::string_view* text);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_FUNCNAME_H_
