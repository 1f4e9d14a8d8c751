// C-style path quoting as git prints names with core.quotePath=true.
//
// A name is quoted when it contains a byte below 0x20, 0x7f, '"', '\\' or any byte >= 0x80. Quoted
// names are wrapped in double quotes; \a \b \t \n \v \f \r \" \\ use their short escapes and every
// other such byte is a three-digit octal escape. The prefix ("a/", "b/") is part of the quoted
// name.
#ifndef GENTLE_EXPORT_PATH_QUOTE_H_
#define GENTLE_EXPORT_PATH_QUOTE_H_

#include <string>
#include <string_view>

namespace gentle::exporter {

// True when `name` must be printed quoted.
bool PathNeedsQuoting(std::string_view name);

// Appends prefix+path to `out`, quoted as a single name when either part needs quoting.
void AppendQuotedPath(std::string_view prefix, std::string_view path, std::string* out);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_PATH_QUOTE_H_
