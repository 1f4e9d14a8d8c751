#include "export/show_html.h"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "export/markdown_html.h"

namespace gentle::exporter {
namespace {

constexpr std::string_view kStyle = R"(
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:0 16px;color:#1f2328}
h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:32px}
h3{font-size:15px;margin:18px 0 6px}
dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px;margin:6px 0}
dt{color:#59636e}dd{margin:0;font-family:ui-monospace,monospace;overflow-wrap:anywhere}
ol.timeline{list-style:none;padding:0}
ol.timeline>li{border-left:3px solid #d0d7de;padding:4px 12px;margin:10px 0}
li.verdict-APPROVE{border-color:#1a7f37}li.verdict-REQUEST_CHANGES{border-color:#cf222e}
.body{background:#f6f8fa;padding:4px 12px;border-radius:6px}
.sig-verified{color:#1a7f37;font-weight:bold}.sig-untrusted{color:#cf222e;font-weight:bold}
.refusal{color:#cf222e;font-weight:bold}
.summarised{color:#9a6700;font-weight:bold}
details{border:1px solid #d0d7de;border-radius:6px;margin:8px 0}
summary{background:#f6f8fa;padding:4px 8px;font-family:ui-monospace,monospace;cursor:pointer}
table.diff{border-collapse:collapse;width:100%;font:12px/1.4 ui-monospace,monospace;table-layout:fixed}
table.diff td{padding:0 6px;white-space:pre-wrap;overflow-wrap:anywhere;vertical-align:top}
table.diff col.n{width:4em}
table.diff td.n{color:#59636e;text-align:right;user-select:none}
tr.meta td{font-weight:bold}tr.frag td{color:#0969da;background:#ddf4ff}
td.old{background:#ffebe9}td.new{background:#dafbe1}td.empty{background:#f6f8fa}
nav.files ul{margin:4px 0}
.layout-split{display:none}
body:has(#split:target) .layout-split,body:has(.layout-split :target) .layout-split{display:block}
body:has(#split:target) .layout-unified,body:has(.layout-split :target) .layout-unified{display:none}
)";

// After a summarised entry's name: the reviewer's view shows it as a summary (docs/loop.md, "The
// reviewer instruction").
constexpr std::string_view kSummarisedMark =
    " <span class=\"summarised\">summarised: generated, no line-level claims</span>";

std::string Escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// One file's section of a patch: from its "diff --git" line to the next.
struct FileSection {
  std::string name;  // as the header line names it (quoted as git quotes it)
  std::string_view text;
  std::vector<std::string_view> lines;
  size_t body_start = 0;  // the first line after the header: an "@@" line or "GIT binary patch"
  bool binary = false;
  bool summarised = false;  // the reviewer's view shows it as a summary (export/entry_summary.h)
};

// "diff --git a/P b/P" names P (no renames: both sides are the same path).
std::string SectionName(std::string_view header) {
  std::string_view rest = header.substr(std::string_view("diff --git ").size());
  if (rest.size() < 5) return std::string(rest);
  const size_t half = (rest.size() - 1) / 2;
  std::string_view old_side = rest.substr(0, half);
  if (old_side.starts_with("\"a/")) return "\"" + std::string(old_side.substr(3));
  if (old_side.starts_with("a/")) return std::string(old_side.substr(2));
  return std::string(old_side);
}

// Marks the sections `summarised` names (the section's path as git's header names it).
void MarkSummarised(const std::vector<std::string>& summarised,
                    std::vector<FileSection>* sections) {
  for (FileSection& s : *sections) {
    s.summarised = std::find(summarised.begin(), summarised.end(), s.name) != summarised.end();
  }
}

std::vector<FileSection> SplitSections(std::string_view patch) {
  std::vector<FileSection> sections;
  size_t start = 0;
  while (start < patch.size()) {
    size_t next = patch.find("\ndiff --git ", start);
    const size_t end = next == std::string_view::npos ? patch.size() : next + 1;
    FileSection section;
    section.text = patch.substr(start, end - start);
    section.lines = Lines(section.text);
    section.name = SectionName(section.lines.front());
    section.body_start = section.lines.size();
    for (size_t i = 0; i < section.lines.size(); ++i) {
      const std::string_view line = section.lines[i];
      if (line.starts_with("@@") || line == "GIT binary patch") {
        section.body_start = i;
        section.binary = line == "GIT binary patch";
        break;
      }
    }
    sections.push_back(std::move(section));
    start = end;
  }
  return sections;
}

// The start lines of a "@@ -a,b +c,d @@" header.
void HunkStarts(std::string_view line, long* old_line, long* new_line) {
  const std::string text(line);
  const size_t minus = text.find('-'), plus = text.find('+');
  *old_line = minus == std::string::npos ? 0 : std::strtol(text.c_str() + minus + 1, nullptr, 10);
  *new_line = plus == std::string::npos ? 0 : std::strtol(text.c_str() + plus + 1, nullptr, 10);
}

std::string Cell(const std::string& cls, std::string_view text) {
  return "<td class=\"" + cls + "\">" + Escape(text) + "</td>";
}

std::string Number(long n) {
  return "<td class=\"n\">" + (n > 0 ? std::to_string(n) : "") + "</td>";
}

// A header or hunk-range row that spans the table.
std::string SpanRow(const std::string& cls, std::string_view text, int columns) {
  return "<tr class=\"" + cls + "\"><td colspan=\"" + std::to_string(columns) + "\">" +
         Escape(text) + "</td></tr>\n";
}

// The section's header lines, then for a binary patch its size in place of its body.
std::string HeaderRows(const FileSection& s, int columns) {
  std::string out;
  for (size_t i = 0; i < s.body_start; ++i) out += SpanRow("meta", s.lines[i], columns);
  if (s.binary) {
    out +=
        SpanRow("meta", "GIT binary patch (" + std::to_string(s.text.size()) + " bytes, not shown)",
                columns);
  }
  return out;
}

// The hunk lines of a text section.
std::vector<std::string_view> HunkLines(const FileSection& s) {
  if (s.binary) return {};
  return {s.lines.begin() + static_cast<std::ptrdiff_t>(s.body_start), s.lines.end()};
}

std::string UnifiedTable(const FileSection& s) {
  std::string out =
      "<table class=\"diff unified\"><colgroup><col class=\"n\"><col class=\"n\"><col>"
      "</colgroup>\n";
  out += HeaderRows(s, 3);
  long old_line = 0, new_line = 0;
  for (std::string_view line : HunkLines(s)) {
    if (line.starts_with("@@")) {
      HunkStarts(line, &old_line, &new_line);
      out += SpanRow("frag", line, 3);
    } else if (line.starts_with("-")) {
      out += "<tr>" + Number(old_line++) + Number(0) + Cell("old", line) + "</tr>\n";
    } else if (line.starts_with("+")) {
      out += "<tr>" + Number(0) + Number(new_line++) + Cell("new", line) + "</tr>\n";
    } else if (line.starts_with("\\")) {
      out += SpanRow("ctx", line, 3);
    } else {
      out += "<tr>" + Number(old_line++) + Number(new_line++) + Cell("ctx", line) + "</tr>\n";
    }
  }
  return out + "</table>\n";
}

std::string SplitTable(const FileSection& s) {
  std::string out =
      "<table class=\"diff split\"><colgroup><col class=\"n\"><col><col class=\"n\"><col>"
      "</colgroup>\n";
  out += HeaderRows(s, 4);
  long old_line = 0, new_line = 0;
  std::vector<std::string_view> removed, added;
  auto flush = [&] {
    for (size_t i = 0; i < std::max(removed.size(), added.size()); ++i) {
      out += "<tr>";
      out += i < removed.size() ? Number(old_line++) + Cell("old", removed[i].substr(1))
                                : Number(0) + Cell("empty", "");
      out += i < added.size() ? Number(new_line++) + Cell("new", added[i].substr(1))
                              : Number(0) + Cell("empty", "");
      out += "</tr>\n";
    }
    removed.clear();
    added.clear();
  };
  for (std::string_view line : HunkLines(s)) {
    if (line.starts_with("-")) {
      if (!added.empty()) flush();
      removed.push_back(line);
      continue;
    }
    if (line.starts_with("+")) {
      added.push_back(line);
      continue;
    }
    flush();
    if (line.starts_with("@@")) {
      HunkStarts(line, &old_line, &new_line);
      out += SpanRow("frag", line, 4);
    } else if (line.starts_with("\\")) {
      out += SpanRow("ctx", line, 4);
    } else {
      const std::string_view text = line.empty() ? line : line.substr(1);
      out += "<tr>" + Number(old_line++) + Cell("ctx", text) + Number(new_line++) +
             Cell("ctx", text) + "</tr>\n";
    }
  }
  flush();
  return out + "</table>\n";
}

std::string FileBlock(const FileSection& s, const std::string& id, bool split) {
  const bool collapsed = s.text.size() > kCollapsedFileBytes;
  std::string out = "<details id=\"" + id + "\"" + (collapsed ? "" : " open") + "><summary>" +
                    Escape(s.name) + " <small>(" + std::to_string(s.text.size()) + " bytes" +
                    (collapsed ? ", collapsed" : "") + ")</small>" +
                    (s.summarised ? std::string(kSummarisedMark) : std::string()) + "</summary>\n";
  out += split ? SplitTable(s) : UnifiedTable(s);
  return out + "</details>\n";
}

std::string Row(std::string_view term, std::string_view value) {
  return "<dt>" + Escape(term) + "</dt><dd>" + Escape(value) + "</dd>";
}

std::string Refusal(const Status& refusal) {
  return "<p class=\"refusal\">Not shown: " + Escape(CodeName(refusal.code())) + ": " +
         Escape(refusal.message()) + "</p>\n";
}

Result<std::string> EventItem(const ShowEvent& e) {
  std::string out = "<li class=\"event " + Escape(e.verb.text()) +
                    (e.verdict.empty() ? "" : " verdict-" + Escape(e.verdict.text())) + "\"><h3>" +
                    Escape(e.verb.text()) +
                    (e.verdict.empty() ? "" : " " + Escape(e.verdict.text())) + " <small>(round " +
                    std::to_string(e.round) + ")</small></h3><dl>";
  if (e.HasVerdict()) {
    out += Row("Actor", e.actor) + Row("Role", e.role.text());
    out += "<dt>Signature</dt><dd class=\"sig-" + Escape(e.signature) + "\">" +
           Escape(e.signature) + (e.signer.empty() ? "" : " (" + Escape(e.signer) + ")") + "</dd>";
  }
  out += Row("Date", e.at) + Row("State", e.state.name()) + Row("Revision", e.revision) +
         Row("Commit", e.commit) + "</dl>\n";
  if (e.HasVerdict()) {
    GENTLE_ASSIGN_OR_RETURN(std::string body, SafeMarkdownHtml(e.body));
    out += "<div class=\"body\">" + body + "</div>\n";
  }
  return out + "</li>\n";
}

// The files of `diff` (list, unified, side by side) under anchors starting with `prefix`.
std::string DiffBody(const ShowDiff& diff, const std::string& prefix, bool with_split) {
  if (!diff.derived) return Refusal(diff.refusal);
  std::vector<FileSection> sections = SplitSections(diff.diff.patch);
  MarkSummarised(diff.summarised_paths, &sections);
  if (sections.empty()) return "<p>No changes.</p>\n";
  std::string out = "<nav class=\"files\"><ul>\n";
  for (size_t i = 0; i < sections.size(); ++i) {
    const std::string n = std::to_string(i);
    out += "<li><a href=\"#" + prefix + "-unified-" + n + "\">" + Escape(sections[i].name) + "</a>";
    if (sections[i].summarised) out += kSummarisedMark;
    if (with_split) out += " (<a href=\"#" + prefix + "-split-" + n + "\">side by side</a>)";
    out += "</li>\n";
  }
  out += "</ul></nav>\n";
  if (with_split) out += "<div class=\"layout-unified\">";
  out += "<h3 id=\"" + prefix + "-unified\">Unified</h3>\n";
  for (size_t i = 0; i < sections.size(); ++i) {
    out += FileBlock(sections[i], prefix + "-unified-" + std::to_string(i), false);
  }
  if (!with_split) return out;
  out += "</div>\n<div class=\"layout-split\"><h3 id=\"" + prefix + "-split\">Side by side</h3>\n";
  for (size_t i = 0; i < sections.size(); ++i) {
    out += FileBlock(sections[i], prefix + "-split-" + std::to_string(i), true);
  }
  return out + "</div>\n";
}

std::string RoundSection(const ShowRound& r) {
  const std::string id = "round-" + std::to_string(r.round);
  std::string out = "<section id=\"" + id + "\"><h2>Round " + std::to_string(r.round) +
                    "</h2>\n<dl class=\"digests\">" + Row("Revision", r.revision) +
                    Row("Base tree", r.snapshot.base_tree) +
                    Row("Candidate tree", r.snapshot.candidate_tree) +
                    Row("Paths digest", r.snapshot.paths_digest);
  if (r.diff.derived) {
    out += Row("Patch sha256", r.diff.patch_sha256) +
           Row("Patch size", std::to_string(r.diff.byte_size) + " bytes");
  }
  out += "</dl>\n" + DiffBody(r.diff, id, true);
  return out + "</section>\n";
}

std::string InterdiffSection(const ShowInterdiff& d) {
  const std::string id = "interdiff-" + std::to_string(d.from) + "-" + std::to_string(d.to);
  std::string out = "<section id=\"" + id + "\"><h2>Interdiff: round " + std::to_string(d.from) +
                    " to round " + std::to_string(d.to) + "</h2>\n<dl class=\"digests\">";
  if (d.diff.derived) out += Row("Patch sha256", d.diff.patch_sha256);
  out += "</dl>\n" + DiffBody(d.diff, id, false);
  return out + "</section>\n";
}

}  // namespace

Result<std::string> RenderShowHtml(const ShowView& view) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'\">\n<title>Review " +
      Escape(view.lineage) + "</title>\n<style>" + std::string(kStyle) + "</style></head>\n";
  out += "<body>\n<div id=\"unified\"></div><div id=\"split\"></div>\n";
  out += "<header><h1>Review " + Escape(view.lineage) + "</h1><dl>" +
         Row("Source", view.source.empty() ? "local" : view.source) +
         Row("State", view.state.name()) + Row("Revision", view.revision) + "</dl>\n";
  out +=
      "<nav><p>Diffs: <a href=\"#unified\">unified</a> | <a href=\"#split\">side by side</a>"
      "</p><ul><li><a href=\"#timeline\">Timeline</a></li>";
  for (const ShowRound& r : view.rounds) {
    const std::string id = "round-" + std::to_string(r.round);
    out += "<li><a href=\"#" + id + "\">Round " + std::to_string(r.round) + "</a> (<a href=\"#" +
           id + "-unified\">unified</a>, <a href=\"#" + id + "-split\">side by side</a>)</li>";
  }
  for (const ShowInterdiff& d : view.interdiffs) {
    out += "<li><a href=\"#interdiff-" + std::to_string(d.from) + "-" + std::to_string(d.to) +
           "\">Interdiff " + std::to_string(d.from) + " to " + std::to_string(d.to) + "</a></li>";
  }
  out +=
      "</ul></nav></header>\n<section id=\"timeline\"><h2>Timeline</h2>\n<ol class=\"timeline\">\n";
  for (const ShowEvent& e : view.events) {
    GENTLE_ASSIGN_OR_RETURN(std::string item, EventItem(e));
    out += item;
  }
  out += "</ol></section>\n";
  for (const ShowRound& r : view.rounds) out += RoundSection(r);
  for (const ShowInterdiff& d : view.interdiffs) out += InterdiffSection(d);
  return out + "</body></html>\n";
}

}  // namespace gentle::exporter
