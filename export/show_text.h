// The terminal view of `review show` (docs/show.md): the lineage's timeline, then one round's
// frozen diff, in git's style.
//
// RenderShowText writes the header (lineage, source, state), one block per history event (its
// verb, round and time on the first line; for a verdict its verdict, actor, role, signature status
// and body, indented four spaces as `git log` indents a message), then the selected round: its
// trees, paths digest and patch sha256, and the patch bytes export-context derives for it (or the
// budget refusal that stands in for them).
//
// With `colour` the patch is coloured as `git diff` colours it on a terminal with git's default
// colours (ColourPatch): header lines bold, `@@` ranges cyan, removed lines red, added lines green
// with their whitespace errors (trailing blanks, spaces before a tab in the indent) on a red
// background; context lines and binary bodies plain. Event lines take git log's commit colour
// (yellow). Every recorded text and the patch pass through store::VisibleText first (control
// bytes, bidirectional controls and invalid UTF-8 shown escaped), so without `colour` the patch
// bytes are export-context's wherever they are printable UTF-8.
#ifndef GENTLE_EXPORT_SHOW_TEXT_H_
#define GENTLE_EXPORT_SHOW_TEXT_H_

#include <string>
#include <string_view>

#include "export/review_show.h"

namespace gentle::exporter {

std::string RenderShowText(const ShowView& view, bool colour);

// `patch` (git's unified format, as export-context prints it) with git's default diff colours.
std::string ColourPatch(std::string_view patch);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_SHOW_TEXT_H_
