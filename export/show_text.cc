#include "export/show_text.h"

#include "store/visible_text.h"

namespace gentle::exporter {
namespace {

// git's default colours (color.diff.*, color.diff.commit) and its reset.
constexpr std::string_view kMeta = "\033[1m";
constexpr std::string_view kFrag = "\033[36m";
constexpr std::string_view kOld = "\033[31m";
constexpr std::string_view kNew = "\033[32m";
constexpr std::string_view kWhitespace = "\033[41m";
constexpr std::string_view kCommit = "\033[33m";
constexpr std::string_view kReset = "\033[m";

void Painted(std::string_view colour, std::string_view text, std::string* out) {
  out->append(colour);
  out->append(text);
  out->append(kReset);
}

bool Blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// An added line's text after its '+': the indent up to its last tab (tabs plain, the spaces
// before a tab marked), the rest green, trailing blanks marked.
void AddedBody(std::string_view body, std::string* out) {
  size_t trailing = body.size();
  while (trailing > 0 && Blank(body[trailing - 1])) --trailing;
  size_t indent = 0;
  for (size_t i = 0; i < body.size() && (body[i] == ' ' || body[i] == '\t'); ++i) {
    if (body[i] == '\t') indent = i + 1;
  }
  if (indent > trailing) indent = trailing;
  for (size_t i = 0; i < indent;) {
    size_t j = i;
    while (j < indent && body[j] == body[i]) ++j;
    if (body[i] == '\t') {
      out->append(body.substr(i, j - i));
    } else {
      Painted(kWhitespace, body.substr(i, j - i), out);
    }
    i = j;
  }
  if (trailing > indent) Painted(kNew, body.substr(indent, trailing - indent), out);
  if (body.size() > trailing) Painted(kWhitespace, body.substr(trailing), out);
}

// A hunk header: the ranges in the frag colour, then the function text plain.
void HunkHeader(std::string_view line, std::string* out) {
  const size_t close = line.find(" @@", 2);
  const size_t end = close == std::string_view::npos ? line.size() : close + 3;
  Painted(kFrag, line.substr(0, end), out);
  if (end < line.size()) {
    out->append(line.substr(end, 1));
    out->append(kReset);
    out->append(line.substr(end + 1));
    out->append(kReset);
  }
}

enum class Part { kHeader, kHunk, kBinary };

void ColourLine(std::string_view line, Part* part, std::string* out) {
  if (line.starts_with("diff --git ")) *part = Part::kHeader;
  if (*part == Part::kHeader) {
    if (line.starts_with("@@")) {
      *part = Part::kHunk;
    } else if (line == "GIT binary patch") {
      *part = Part::kBinary;
      out->append(line);
      return;
    } else {
      Painted(kMeta, line, out);
      return;
    }
  }
  if (*part == Part::kBinary || line.empty()) {
    out->append(line);
    return;
  }
  switch (line[0]) {
    case '@':
      HunkHeader(line, out);
      return;
    case '-':
      Painted(kOld, line, out);
      return;
    case '+':
      Painted(kNew, "+", out);
      AddedBody(line.substr(1), out);
      return;
    default:  // context and "\ No newline at end of file": the normal colour, then a reset
      out->append(line);
      out->append(kReset);
  }
}

// Recorded text (bodies, actors, roles: untrusted) made safe for a terminal.
std::string Visible(std::string_view text) { return store::VisibleText(text); }

std::string Yellow(const std::string& text, bool colour) {
  return colour ? std::string(kCommit) + text + std::string(kReset) : text;
}

// `text` with every line indented four spaces (empty lines stay empty), ending in a newline.
std::string Indented(std::string_view text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    if (!line.empty()) out += "    " + std::string(line);
    out += '\n';
    start = end + 1;
  }
  return out;
}

void Event(const ShowEvent& e, bool colour, std::string* out) {
  std::string title = Visible(e.verb.text());
  if (!e.verdict.empty()) title += " " + Visible(e.verdict.text());
  *out += Yellow(title, colour) + " (round " + std::to_string(e.round) + ")\n";
  if (e.HasVerdict()) {
    *out += "Actor:     " + Visible(e.actor) + " (" + Visible(e.role.text()) + ")\n";
    *out += "Signature: " + e.signature + (e.signer.empty() ? "" : " (" + Visible(e.signer) + ")") +
            "\n";
  }
  *out += "Date:      " + Visible(e.at) + "\n";
  *out += "State:     " + Visible(e.state.name()) + "\n";
  *out += "Revision:  " + e.revision + "\n";
  *out += "Commit:    " + e.commit + "\n";
  if (!e.body.empty()) *out += "\n" + Indented(Visible(e.body));
  *out += "\n";
}

void Round(const ShowRound& r, size_t rounds, bool colour, std::string* out) {
  *out +=
      Yellow("round " + std::to_string(r.round) + " of " + std::to_string(rounds), colour) + "\n";
  *out += "Revision:       " + r.revision + "\n";
  *out += "Base tree:      " + r.snapshot.base_tree + "\n";
  *out += "Candidate tree: " + r.snapshot.candidate_tree + "\n";
  *out += "Paths digest:   " + r.snapshot.paths_digest + "\n";
  if (!r.diff.derived) {
    *out += "Patch:          not shown: " + std::string(CodeName(r.diff.refusal.code())) + ": " +
            Visible(r.diff.refusal.message()) + "\n";
    return;
  }
  *out += "Patch:          " + r.diff.patch_sha256 + " (" + std::to_string(r.diff.byte_size) +
          " bytes, " + std::to_string(r.diff.paths) + " paths)\n";
  // The reviewer's view: generated entries shown as summaries (docs/loop.md, "The reviewer
  // instruction"), each named here.
  for (const std::string& path : r.diff.summarised_paths) {
    *out += "Summarised:     " + Visible(path) + " (generated; no line-level claims)\n";
  }
  *out += "\n";
  const std::string patch = Visible(r.diff.diff.patch);
  *out += colour ? ColourPatch(patch) : patch;
}

}  // namespace

std::string ColourPatch(std::string_view patch) {
  std::string out;
  out.reserve(patch.size() + patch.size() / 4);
  Part part = Part::kHeader;
  size_t start = 0;
  while (start < patch.size()) {
    size_t end = patch.find('\n', start);
    const bool newline = end != std::string_view::npos;
    if (!newline) end = patch.size();
    ColourLine(patch.substr(start, end - start), &part, &out);
    if (newline) out += '\n';
    start = end + 1;
  }
  return out;
}

std::string RenderShowText(const ShowView& view, bool colour) {
  std::string out;
  out += Yellow("lineage " + view.lineage, colour) + "\n";
  out += "Source:    " + (view.source.empty() ? std::string("local") : Visible(view.source)) + "\n";
  out += "State:     " + Visible(view.state.name()) + "\n";
  out += "Revision:  " + view.revision + "\n\n";
  for (const ShowEvent& event : view.events) Event(event, colour, &out);
  if (const ShowRound* shown = FindShowRound(view, view.selected_round)) {
    Round(*shown, view.rounds.size(), colour, &out);
  }
  return out;
}

}  // namespace gentle::exporter
