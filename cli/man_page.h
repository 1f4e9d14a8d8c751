// Man pages of gentle-ai, rendered as troff (man(7) macros) from the command tree
// (cli/command_doc.h): gentle-ai(1), gentle-ai-review(1) and one page per command below them
// (gentle-ai-review-start(1), gentle-ai-review-seen-add(1), gentle-ai-version(1), ...). Each page
// has NAME, SYNOPSIS, DESCRIPTION, OPTIONS (every flag the parser takes), COMMANDS for a group,
// EXIT STATUS (every code of store/status.h) and SEE ALSO. The output depends only on the tree
// and the version: no date, so a rebuild makes the same bytes.
#ifndef GENTLE_CLI_MAN_PAGE_H_
#define GENTLE_CLI_MAN_PAGE_H_

#include <string>
#include <string_view>
#include <vector>

#include "cli/command_doc.h"

namespace gentle::cli {

struct ManPage {
  std::string file_name;  // "gentle-ai-review-start.1"
  std::string text;       // troff source
};

std::vector<ManPage> RenderManPages(const CommandDoc& root, std::string_view version);

// `text` escaped for a troff text line: backslashes, hyphens (as \-, so a flag copies as typed)
// and a leading control character.
std::string TroffEscape(std::string_view text);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_MAN_PAGE_H_
