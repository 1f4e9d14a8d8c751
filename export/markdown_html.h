// SafeMarkdownHtml: a verdict body (untrusted input) rendered from Markdown to an HTML fragment
// with Debian's libcmark-gfm, for the HTML view of `review show` (docs/show.md).
//
// CommonMark only (no extensions), in cmark's safe mode, and then stricter, on the parsed tree
// before rendering: raw HTML (blocks and inline) becomes text, so it is shown escaped and never
// interpreted; every link and image becomes its text followed by its destination as text, so the
// page holds no URL a browser would fetch or follow. The result is well-formed HTML with no
// element or attribute that runs a script.
#ifndef GENTLE_EXPORT_MARKDOWN_HTML_H_
#define GENTLE_EXPORT_MARKDOWN_HTML_H_

#include <string>
#include <string_view>

#include "store/status.h"

namespace gentle::exporter {

Result<std::string> SafeMarkdownHtml(std::string_view markdown);

// The version of libcmark-gfm linked in ("0.29.0.gfm.6").
std::string MarkdownLibraryVersion();

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_MARKDOWN_HTML_H_
