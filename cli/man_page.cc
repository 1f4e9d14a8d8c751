#include "cli/man_page.h"

#include <cctype>
#include <map>

#include "store/status.h"

namespace gentle::cli {
namespace {

std::string Upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// "--lineage LINEAGE", "-h, --help", "file": bold names, italic values.
std::string OptionSignature(const OptionDoc& option) {
  if (option.positional) return "\\fI" + TroffEscape(option.value_name) + "\\fR";
  std::string out;
  if (!option.short_name.empty()) out += "\\fB" + TroffEscape(option.short_name) + "\\fR, ";
  out += "\\fB" + TroffEscape(option.name) + "\\fR";
  if (!option.value_name.empty()) out += " \\fI" + TroffEscape(option.value_name) + "\\fR";
  return out;
}

std::string OptionNotes(const OptionDoc& option) {
  std::string notes;
  if (option.required) notes += " Required.";
  if (option.repeatable && option.description.find("repeatable") == std::string::npos) {
    notes += " Repeatable.";
  }
  return notes;
}

// The synopsis line: required options in full, the rest as [OPTIONS], subcommands as COMMAND.
std::string Synopsis(const CommandDoc& command) {
  std::string out = ".B " + TroffEscape(command.Invocation()) + "\n";
  for (const OptionDoc& option : command.options) {
    if (option.positional) {
      out +=
          (option.required ? "" : "[") + OptionSignature(option) + (option.required ? "\n" : "]\n");
    } else if (option.required) {
      out += OptionSignature(option) + "\n";
    }
  }
  out += "[\\fIOPTIONS\\fR]\n";
  if (!command.subcommands.empty()) out += "\\fICOMMAND\\fR [\\fIARGS\\fR]\n";
  return out;
}

std::string OptionsSection(const CommandDoc& command) {
  std::string out = ".SH OPTIONS\n";
  for (const OptionDoc& option : command.options) {
    out += ".TP\n" + OptionSignature(option) + "\n" + TroffEscape(option.description) +
           TroffEscape(OptionNotes(option)) + "\n";
  }
  return out;
}

std::string CommandsSection(const CommandDoc& command) {
  if (command.subcommands.empty()) return "";
  std::string out = ".SH COMMANDS\n";
  for (const CommandDoc& sub : command.subcommands) {
    out += ".TP\n.B " + TroffEscape(sub.path.back()) + "\n" + TroffEscape(sub.description) +
           "\nSee \\fB" + TroffEscape(sub.PageName()) + "\\fR(1).\n";
  }
  return out;
}

// Every code of the vocabulary under its exit status (docs/design.md).
std::string ExitStatusSection() {
  std::map<int, std::string> codes_by_exit;
  // CodeName answers "internal" for a value past the last code: the walk stops there, so a code
  // appended to the vocabulary is listed without touching this file.
  for (int value = static_cast<int>(Code::kInternal);; ++value) {
    const Code code = static_cast<Code>(value);
    if (code != Code::kInternal && CodeName(code) == CodeName(Code::kInternal)) break;
    std::string& names = codes_by_exit[ExitCodeFor(code)];
    if (!names.empty()) names += ", ";
    names += "\\fB" + TroffEscape(CodeName(code)) + "\\fR";
  }
  std::string out =
      ".SH EXIT STATUS\n"
      "Every failure has a stable code: with \\fB\\-\\-json\\fR it is the \\fBerror.code\\fR of "
      "the JSON error envelope on standard output, otherwise the line "
      "\\fBgentle\\-ai: \\fR\\fIcode\\fR\\fB: \\fR\\fImessage\\fR on standard error.\n"
      ".TP\n.B 0\nsuccess\n";
  for (const auto& [exit_code, names] : codes_by_exit) {
    out += ".TP\n.B " + std::to_string(exit_code) + "\n" + names + "\n";
  }
  return out;
}

std::string SeeAlso(const CommandDoc& command, const CommandDoc& root) {
  std::vector<std::string> pages;
  // The parents, then the children.
  for (std::size_t depth = 1; depth < command.path.size(); ++depth) {
    std::string page;
    for (std::size_t i = 0; i < depth; ++i) page += (i ? "-" : "") + command.path[i];
    pages.push_back(page);
  }
  for (const CommandDoc& sub : command.subcommands) pages.push_back(sub.PageName());
  if (pages.empty()) {
    for (const CommandDoc& sub : root.subcommands) pages.push_back(sub.PageName());
  }
  pages.push_back("git");
  std::string out = ".SH SEE ALSO\n";
  for (std::size_t i = 0; i < pages.size(); ++i) {
    out += "\\fB" + TroffEscape(pages[i]) + "\\fR(1)" + (i + 1 < pages.size() ? ",\n" : "\n");
  }
  return out;
}

// The root page's overview: what the tool is and where the contract lives.
std::string RootDescription() {
  return TroffEscape(
             "gentle-ai review is a git-integrated, content-addressed record of code reviews. "
             "A reviewer freezes a candidate change (base tree, candidate tree, changed paths, "
             "digests) into a lineage kept in the repository's git directory; the lineage moves "
             "through a state machine (reviewing, approved, changes requested, escalated, "
             "invalidated, burned, abandoned); and anyone (a sibling worktree, a later session, "
             "CI) can later ask, read-only, what exactly was reviewed and get the frozen diff "
             "back, byte for byte, with proof that it is the one the record binds.") +
         "\n.PP\n" +
         TroffEscape(
             "Every command takes --json for machine-readable output (errors included) and "
             "--cwd DIR for a directory inside the repository. Each command has its own page, "
             "listed under COMMANDS and SEE ALSO.") +
         "\n";
}

ManPage RenderPage(const CommandDoc& command, const CommandDoc& root, std::string_view version) {
  ManPage page;
  page.file_name = command.PageName() + ".1";
  std::string& t = page.text;
  t = ".\\\" Generated by gentle-ai-docgen from the command table in cli/app.cc; do not edit.\n";
  t += ".TH \"" + TroffEscape(Upper(command.PageName())) + "\" 1 \"\" \"gentle\\-ai " +
       TroffEscape(version) + "\" \"gentle\\-ai manual\"\n";
  t += ".SH NAME\n" + TroffEscape(command.PageName()) + " \\- " + TroffEscape(command.description) +
       "\n";
  t += ".SH SYNOPSIS\n" + Synopsis(command);
  t += ".SH DESCRIPTION\n";
  t += command.path.size() == 1 ? RootDescription() : TroffEscape(command.description) + "\n";
  t += OptionsSection(command);
  t += CommandsSection(command);
  t += ExitStatusSection();
  t += SeeAlso(command, root);
  return page;
}

}  // namespace

std::string TroffEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 8);
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    line_start = c == '\n';
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<ManPage> RenderManPages(const CommandDoc& root, std::string_view version) {
  std::vector<ManPage> pages;
  for (const CommandDoc* command : Flatten(root)) {
    pages.push_back(RenderPage(*command, root, version));
  }
  return pages;
}

}  // namespace gentle::cli
