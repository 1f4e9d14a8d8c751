// The HTML view of `review show --html` (docs/show.md): one self-contained page. Inline CSS only,
// no script, and a Content-Security-Policy that allows nothing else, so the page reads the same
// offline and fetches nothing.
//
// The page holds the lineage's header (source, state, tip revision), the timeline (each event with
// its round, time, state, revision and commit; a verdict with its actor, role, signature status and
// its body rendered from Markdown by export/markdown_html.h), then each round: its binding digests
// (base and candidate tree, paths digest, patch sha256 and size), a list of its files linking to
// each file in both layouts, the diff unified and side by side, then the interdiffs between
// consecutive rounds (unified). A file whose section is larger than kCollapsedFileBytes is
// collapsed (a <details> element, readable without script) with its size; a round or interdiff
// over the byte budget shows the budget refusal in its place. Every byte of recorded or derived
// text is HTML-escaped.
//
// Layouts: the rounds' diffs are shown unified; the page's #split anchor (or any anchor inside the
// side-by-side layout) switches to side by side, #unified back, with CSS alone (:target, :has).
//
// Anchors: #unified, #split, #timeline, #round-N, #round-N-unified, #round-N-split,
// #round-N-unified-F and #round-N-split-F (F: the file's index in the patch, from 0),
// #interdiff-N-M.
#ifndef GENTLE_EXPORT_SHOW_HTML_H_
#define GENTLE_EXPORT_SHOW_HTML_H_

#include <cstddef>
#include <string>

#include "export/review_show.h"
#include "store/status.h"

namespace gentle::exporter {

inline constexpr size_t kCollapsedFileBytes = 65536;

Result<std::string> RenderShowHtml(const ShowView& view);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_SHOW_HTML_H_
