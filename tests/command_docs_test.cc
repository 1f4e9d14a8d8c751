// The man pages and the bash, zsh and fish completions that the build generates
// (cli/command_doc.h, build/generated/) against the CLI itself: every command and every flag that
// `--help` lists (parsed from the help text, not from the generator's model) is in the command's
// man page and is offered by each shell's completion, run in the real shell; value options
// complete files or directories; the pages render without a groff warning and list the exit codes
// of the table in docs/commands.md.
#include <catch2/catch.hpp>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

const std::string kGenerated = std::string(GENTLE_BUILD_DIR) + "/generated";

struct HelpCommand {
  std::vector<std::string> path;  // {"review", "start"}
  std::set<std::string> flags;    // "--lineage", "-h", ...
  std::set<std::string> subcommands;
  bool has_positional = false;
};

// The sections of CLI11's help text: lines under "Options:", "Positionals:" and "Subcommands:".
HelpCommand ParseHelp(const std::vector<std::string>& path, const std::string& help) {
  HelpCommand command;
  command.path = path;
  std::istringstream lines(help);
  std::string line, section;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == ':' && line[0] != ' ') {
      section = line;
      continue;
    }
    if (line.rfind("  ", 0) != 0) continue;
    std::istringstream words(line);
    std::string first;
    words >> first;
    if (section == "Options:") {
      std::stringstream names(first);
      std::string name;
      while (std::getline(names, name, ',')) {
        if (name.rfind("-", 0) == 0) command.flags.insert(name);
      }
    } else if (section == "Subcommands:") {
      command.subcommands.insert(first);
    } else if (section == "Positionals:") {
      command.has_positional = true;
    }
  }
  return command;
}

std::string Invocation(const std::vector<std::string>& path) {
  std::string out = "gentle-ai";
  for (const std::string& word : path) out += " " + word;
  return out;
}

// Every command reachable from `gentle-ai --help`, each with what its own --help lists.
std::vector<HelpCommand> CommandsFromHelp(const std::string& cwd) {
  std::vector<HelpCommand> out;
  std::vector<std::vector<std::string>> pending = {{}};
  while (!pending.empty()) {
    std::vector<std::string> path = pending.back();
    pending.pop_back();
    std::vector<std::string> args = path;
    args.push_back("--help");
    RunResult help = GentleAi(args, cwd);
    REQUIRE(help.exit_code == 0);
    HelpCommand command = ParseHelp(path, help.out);
    REQUIRE(command.flags.count("--help") == 1);
    for (const std::string& sub : command.subcommands) {
      std::vector<std::string> sub_path = path;
      sub_path.push_back(sub);
      pending.push_back(sub_path);
    }
    out.push_back(command);
  }
  return out;
}

std::string PageFile(const std::vector<std::string>& path) {
  std::string name = "gentle-ai";
  for (const std::string& word : path) name += "-" + word;
  return kGenerated + "/man/" + name + ".1";
}

// The page as man(1) shows it, wide enough that no line breaks inside a flag.
std::string RenderedPage(const std::string& file) {
  RunResult man = Run({"man", "-l", file}, "",
                      {{"MANWIDTH", "250"},
                       {"MAN_KEEP_FORMATTING", ""},
                       {"LC_ALL", "C.UTF-8"},
                       {"MANPAGER", "cat"},
                       {"PAGER", "cat"}});
  REQUIRE(man.exit_code == 0);
  return man.out;
}

std::set<std::string> Lines(const std::string& text) {
  std::set<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.insert(line);
  return lines;
}

// What bash's completion function offers for `words`, the last being the word under the cursor.
std::set<std::string> BashComplete(const std::vector<std::string>& words, const std::string& cwd) {
  std::string script = "source '" + kGenerated + "/completion/gentle-ai'\nCOMP_WORDS=(";
  for (const std::string& word : words) script += " '" + word + "'";
  script += ")\nCOMP_CWORD=" + std::to_string(words.size() - 1) +
            "\n_gentle_ai\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n";
  RunResult run = Run({"bash", "--norc", "--noprofile", "-c", script}, cwd);
  REQUIRE(run.exit_code == 0);
  std::set<std::string> offered = Lines(run.out);
  offered.erase("");
  return offered;
}

// What fish offers for the command line `line` (the candidates, without their descriptions).
std::set<std::string> FishComplete(const std::string& line, const std::string& cwd) {
  RunResult run =
      Run({"fish", "--no-config", "-c",
           "source '" + kGenerated + "/completion/gentle-ai.fish'; complete -C '" + line + "'"},
          cwd);
  REQUIRE(run.exit_code == 0);
  std::set<std::string> offered;
  for (const std::string& entry : Lines(run.out)) {
    if (!entry.empty()) offered.insert(entry.substr(0, entry.find('\t')));
  }
  return offered;
}

// The body of the zsh function that completes `path`.
std::string ZshFunctionBody(const std::string& zsh, const std::vector<std::string>& path) {
  std::string name = "_gentle-ai";
  for (const std::string& word : path) name += "_" + word;
  const std::size_t start = zsh.find("\n" + name + "() {\n");
  REQUIRE(start != std::string::npos);
  const std::size_t end = zsh.find("\n}\n", start);
  REQUIRE(end != std::string::npos);
  return zsh.substr(start, end - start);
}

std::set<std::string> WithPrefix(const std::set<std::string>& words, const std::string& prefix) {
  std::set<std::string> out;
  for (const std::string& word : words) {
    if (word.rfind(prefix, 0) == 0) out.insert(word);
  }
  return out;
}

TEST_CASE("docs: every command and flag --help lists has a man page entry and shell completions") {
  TempDir dir;
  const std::vector<HelpCommand> commands = CommandsFromHelp(dir.path());
  // The tree --help shows: the root, review, version, and review's verbs and groups.
  REQUIRE(commands.size() >= 30);
  const std::string zsh = ReadFile(kGenerated + "/completion/_gentle-ai");
  REQUIRE(Run({"zsh", "-n", kGenerated + "/completion/_gentle-ai"}).exit_code == 0);
  std::size_t checked_flags = 0;
  for (const HelpCommand& command : commands) {
    INFO(Invocation(command.path));
    const std::string page = RenderedPage(PageFile(command.path));
    const std::string zsh_body = ZshFunctionBody(zsh, command.path);
    std::vector<std::string> words = {"gentle-ai"};
    words.insert(words.end(), command.path.begin(), command.path.end());
    words.push_back("-");
    const std::set<std::string> bash_flags = BashComplete(words, dir.path());
    const std::set<std::string> fish_flags =
        WithPrefix(FishComplete(Invocation(command.path) + " -", dir.path()), "-");
    CHECK(bash_flags == command.flags);
    CHECK(fish_flags == command.flags);
    for (const std::string& flag : command.flags) {
      INFO(flag);
      CHECK(std::regex_search(page, std::regex("(^|[ ,])" + flag + "([ ,\n]|$)")));
      // '--cwd[...]', '*--untracked[...]', or {-h,--help}'[...]'.
      CHECK(std::regex_search(zsh_body, std::regex("[' *{,]" + flag + "[\\[,}]")));
      ++checked_flags;
    }
    words.back() = "";
    const std::set<std::string> bash_commands = BashComplete(words, dir.path());
    if (!command.subcommands.empty()) {
      CHECK(bash_commands == command.subcommands);
      std::set<std::string> fish_commands =
          FishComplete(Invocation(command.path) + " ", dir.path());
      CHECK(fish_commands == command.subcommands);
      for (const std::string& sub : command.subcommands) {
        CHECK(zsh_body.find("\n        '" + sub + ":") != std::string::npos);
        CHECK(page.find(sub) != std::string::npos);
      }
    } else if (!command.has_positional) {
      CHECK(bash_commands.empty());
    }
  }
  CHECK(checked_flags >= 150);
}

TEST_CASE("docs: a FILE option completes files and --cwd directories - other values nothing") {
  TempDir dir;
  WriteFile(dir.path() + "/envelope.json", "{}");
  REQUIRE(Run({"mkdir", dir.path() + "/sub"}).exit_code == 0);
  const std::set<std::string> both = {"envelope.json", "sub"};
  CHECK(BashComplete({"gentle-ai", "review", "verify", "--envelope", ""}, dir.path()) == both);
  CHECK(BashComplete({"gentle-ai", "review", "verify", "--cwd", ""}, dir.path()) ==
        std::set<std::string>{"sub"});
  CHECK(BashComplete({"gentle-ai", "review", "verify", "--lineage", ""}, dir.path()).empty());
  // After a value option and its value, the flags again.
  CHECK(BashComplete({"gentle-ai", "review", "verify", "--lineage", "list", "--lin"}, dir.path()) ==
        std::set<std::string>{"--lineage"});
  CHECK(BashComplete({"gentle-ai", "review", "parse-comment", ""}, dir.path()) == both);
  CHECK(FishComplete("gentle-ai review verify --envelope ", dir.path()) ==
        std::set<std::string>{"envelope.json", "sub/"});
  CHECK(FishComplete("gentle-ai review verify --lineage ", dir.path()).empty());
  CHECK(FishComplete("gentle-ai review verify --lineage list --lin", dir.path()) ==
        std::set<std::string>{"--lineage"});
}

// The exit code table of docs/commands.md: exit -> the codes in backquotes on its row.
std::map<int, std::set<std::string>> DocumentedExitCodes() {
  std::map<int, std::set<std::string>> table;
  const std::string readme = ReadFile(std::string(GENTLE_SOURCE_DIR) + "/docs/commands.md");
  const std::size_t start = readme.find("| exit | codes |");
  REQUIRE(start != std::string::npos);
  std::istringstream rows(readme.substr(start));
  std::string row;
  const std::regex row_shape(R"(^\| (\d+) \| (.*)\|$)");
  const std::regex code_shape("`([a-z_]+)`");
  std::getline(rows, row);
  std::getline(rows, row);
  while (std::getline(rows, row) && row.rfind("|", 0) == 0) {
    std::smatch match;
    REQUIRE(std::regex_match(row, match, row_shape));
    const int exit_code = std::stoi(match[1]);
    // The codes in backquotes outside parentheses: inside them is explanation.
    std::string outside;
    int depth = 0;
    for (char c : std::string(match[2])) {
      if (c == '(') ++depth;
      if (depth == 0) outside += c;
      if (c == ')') --depth;
    }
    for (auto it = std::sregex_iterator(outside.begin(), outside.end(), code_shape);
         it != std::sregex_iterator(); ++it) {
      table[exit_code].insert((*it)[1]);
    }
  }
  return table;
}

TEST_CASE("docs: man pages render without warnings and list the documented exit codes") {
  const std::vector<std::string> pages = {"gentle-ai",
                                          "gentle-ai-review",
                                          "gentle-ai-version",
                                          "gentle-ai-review-start",
                                          "gentle-ai-review-seen-add",
                                          "gentle-ai-review-context-import"};
  const std::map<int, std::set<std::string>> readme = DocumentedExitCodes();
  REQUIRE(readme.size() == 12);
  for (const std::string& name : pages) {
    INFO(name);
    const std::string file = kGenerated + "/man/" + name + ".1";
    RunResult groff = Run({"groff", "-man", "-Tutf8", "-ww", "-z", file});
    CHECK(groff.exit_code == 0);
    CHECK(groff.err.empty());
    const std::string page = RenderedPage(file);
    CHECK(page.find("NAME\n       " + name + " - ") != std::string::npos);
    const std::size_t exit_status = page.find("\nEXIT STATUS\n");
    REQUIRE(exit_status != std::string::npos);
    const std::string section = page.substr(exit_status, page.find("\nSEE ALSO\n") - exit_status);
    // Each exit status is a tagged paragraph: "       6      read_only, ...".
    std::map<int, std::string> rows;
    const std::regex row_shape(R"(^ +(\d+) +(.*)$)");
    std::istringstream lines(section);
    std::string line;
    while (std::getline(lines, line)) {
      std::smatch match;
      if (std::regex_match(line, match, row_shape)) rows[std::stoi(match[1])] = match[2];
    }
    CHECK(rows[0] == "success");
    for (const auto& [exit_code, codes] : readme) {
      INFO(exit_code);
      REQUIRE(rows.count(exit_code) == 1);
      for (const std::string& code : codes) {
        INFO(code);
        CHECK(std::regex_search(rows[exit_code], std::regex("(^|, )" + code + "(,|$)")));
      }
    }
  }
}

}  // namespace
}  // namespace gentle::testing
