// Progress and colour on a terminal (docs/commands.md, "Progress and colour"): real commands under
// a pseudo-terminal made by util-linux `script`, whose output is every byte the terminal received
// (stdout and stderr together, newlines as \r\n). A progress line is drawn as
// "\r<verb>: <done>/<total> <what>\033[K" and erased with "\r\033[K" before the command prints;
// the same command piped prints no progress and no colour, byte for byte as without a terminal.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_env.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

const std::string kErase = "\r\033[K";

std::string ShellQuote(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// gentle-ai <args> on a pseudo-terminal (stdin, stdout and stderr), or with stdout redirected to
// `stdout_file` when given; TERM and NO_COLOR as `term` and `no_color` say. Returns what the
// terminal received as `out`.
RunResult OnTerminal(const std::vector<std::string>& args, const std::string& term,
                     const std::string& no_color = "", const std::string& stdout_file = "") {
  std::string command = ShellQuote(GENTLE_AI_BIN);
  for (const std::string& arg : args) command += " " + ShellQuote(arg);
  if (!stdout_file.empty()) command += " > " + ShellQuote(stdout_file);
  Env env = GitEnv();
  env["TERM"] = term;
  env["NO_COLOR"] = no_color;
  return Run({"script", "-qec", command, "/dev/null"}, "", env);
}

// The same command with no terminal anywhere (stdout and stderr are pipes).
RunResult Piped(const std::vector<std::string>& args, const std::string& term = "xterm") {
  return GentleAi(args, "", {{"TERM", term}, {"NO_COLOR", ""}});
}

// `text` as a terminal receives it: every \n as \r\n.
std::string AsTerminal(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

// `text` without SGR colour sequences (ESC [ digits;... m).
std::string WithoutColour(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\033' && i + 1 < text.size() && text[i + 1] == '[') {
      size_t j = i + 2;
      while (j < text.size() && ((text[j] >= '0' && text[j] <= '9') || text[j] == ';')) ++j;
      if (j < text.size() && text[j] == 'm') {
        i = j;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

std::string Drawn(const std::string& line) { return "\r" + line + "\033[K"; }

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// What the terminal shows after the progress line was erased for the last time (the whole output
// when none was drawn).
std::string AfterProgress(const std::string& terminal) {
  const size_t at = terminal.rfind(kErase);
  return at == std::string::npos ? terminal : terminal.substr(at + kErase.size());
}

struct ThreeLineages {
  LifecycleRepo repo;
  std::string approved;
  ThreeLineages() {
    repo.StartNew();
    repo.StartNew();
    approved = repo.StartApproved().lineage;
  }
  std::vector<std::string> Args(const std::vector<std::string>& args, bool json = false) const {
    return repo.ReviewArgs(args, json);
  }
};

TEST_CASE("progress: fsck on a terminal draws each phase and erases the line before it prints") {
  ThreeLineages s;
  const RunResult piped = Piped(s.Args({"fsck"}));
  REQUIRE(piped.exit_code == 0);
  CHECK(piped.err.empty());
  CHECK(piped.out ==
        "clean: 3 lineage(s), 0 tombstone(s), 0 quarantine entries, 3 pin ref(s), 0 finding(s)\n");

  const RunResult tty = OnTerminal(s.Args({"fsck"}), "xterm");
  INFO(tty.out << tty.err);
  REQUIRE(tty.exit_code == 0);
  CHECK(Contains(tty.out, Drawn("fsck: 0/3 records read")));
  CHECK(Contains(tty.out, Drawn("fsck: 3/3 records read")));
  CHECK(Contains(tty.out, Drawn("fsck: 0/3 histories checked")));
  // The final state is drawn, then erased, and only then does stdout start.
  CHECK(Contains(tty.out, Drawn("fsck: 3/3 histories checked") + kErase + "\033[32mclean\033[0m:"));
  CHECK(tty.out.compare(0, 1, "\r") == 0);
  // Without the progress line and the colour, the terminal saw exactly the piped stdout.
  CHECK(WithoutColour(AfterProgress(tty.out)) == AsTerminal(piped.out));
}

TEST_CASE("progress: fsck --json on a terminal draws no progress and no colour") {
  ThreeLineages s;
  const RunResult piped = Piped(s.Args({"fsck"}, /*json=*/true));
  REQUIRE(piped.exit_code == 0);
  const RunResult tty = OnTerminal(s.Args({"fsck"}, /*json=*/true), "xterm");
  REQUIRE(tty.exit_code == 0);
  CHECK(tty.out == AsTerminal(piped.out));
  CHECK_FALSE(Contains(tty.out, "\033"));
}

TEST_CASE(
    "progress: TERM=dumb draws neither progress nor colour and NO_COLOR keeps progress only") {
  ThreeLineages s;
  const RunResult piped = Piped(s.Args({"fsck"}));
  REQUIRE(piped.exit_code == 0);
  const RunResult dumb = OnTerminal(s.Args({"fsck"}), "dumb");
  REQUIRE(dumb.exit_code == 0);
  CHECK(dumb.out == AsTerminal(piped.out));

  const RunResult no_color = OnTerminal(s.Args({"fsck"}), "xterm", "1");
  REQUIRE(no_color.exit_code == 0);
  CHECK(Contains(no_color.out, Drawn("fsck: 3/3 histories checked") + kErase + "clean:"));
  CHECK(AfterProgress(no_color.out) == AsTerminal(piped.out));
}

TEST_CASE("progress: index rebuild and repair draw their phases on a terminal only") {
  ThreeLineages s;
  const RunResult rebuild = OnTerminal(s.Args({"index", "rebuild"}), "xterm");
  INFO(rebuild.out);
  REQUIRE(rebuild.exit_code == 0);
  CHECK(Contains(rebuild.out, Drawn("index rebuild: 3/3 records read")));
  CHECK(Contains(rebuild.out, Drawn("index rebuild: 3/3 histories levelled") + kErase +
                                  "index rebuilt: 3 lineage(s)"));
  const RunResult rebuild_piped = Piped(s.Args({"index", "rebuild"}));
  REQUIRE(rebuild_piped.exit_code == 0);
  CHECK(rebuild_piped.err.empty());
  CHECK(AfterProgress(rebuild.out) == AsTerminal(rebuild_piped.out));

  const RunResult repair = OnTerminal(s.Args({"repair"}), "xterm");
  INFO(repair.out);
  REQUIRE(repair.exit_code == 0);
  CHECK(repair.out.compare(0, Drawn("repair: 0/3 records read").size(),
                           Drawn("repair: 0/3 records read")) == 0);
  CHECK(Contains(repair.out, Drawn("repair: 0/3 histories checked")));
  // Nothing was out of step: no repair phase after the check.
  CHECK(Contains(repair.out,
                 Drawn("repair: 3/3 histories checked") + kErase + "nothing to repair\r\n"));
  CHECK(AfterProgress(repair.out) == "nothing to repair\r\n");
  const RunResult repair_piped = Piped(s.Args({"repair"}));
  CHECK(repair_piped.out == "nothing to repair\n");
  CHECK(repair_piped.err.empty());
}

TEST_CASE("progress: import counts the fetched history commits it verified") {
  LifecycleRepo origin;
  const std::string lineage = origin.StartApproved().lineage;
  LifecycleRepo clone(LifecycleRepo::CloneOf{origin});
  REQUIRE(clone.Review({"fetch"}).exit_code == 0);
  const RunResult tty =
      OnTerminal(clone.ReviewArgs({"import", "--lineage", lineage}, /*json=*/false), "xterm");
  INFO(tty.out);
  REQUIRE(tty.exit_code == 0);
  CHECK(tty.out.compare(0, Drawn("import: 0 history commits verified").size(),
                        Drawn("import: 0 history commits verified")) == 0);
  CHECK(Contains(tty.out, Drawn("import: 2 history commits verified") + kErase + "imported " +
                              lineage + " from origin: approved, 2 new history commit(s)\r\n"));
  CHECK(AfterProgress(tty.out) ==
        "imported " + lineage + " from origin: approved, 2 new history commit(s)\r\n");
}

TEST_CASE(
    "progress: an export over 1 MiB counts the bytes written when stdout is not the terminal") {
  LifecycleRepo repo;
  std::string big;
  for (int i = 0; big.size() < 1500000; ++i)
    big += "line " + std::to_string(i) + " of a big file\n";
  repo.Write("big.txt", big);
  const nlohmann::json started = repo.ReviewOk({"start", "--untracked", "big.txt"});
  const std::string lineage = started["lineage"];
  const std::vector<std::string> args = repo.ReviewArgs({"export-context", "--lineage", lineage},
                                                        /*json=*/false);
  const RunResult piped = Piped(args);
  REQUIRE(piped.exit_code == 0);
  CHECK(piped.err.empty());
  REQUIRE(piped.out.size() > 1048576);
  const std::string total = std::to_string(piped.out.size());

  TempDir dir;
  const std::string patch = dir.path() + "/out.patch";
  const RunResult tty = OnTerminal(args, "xterm", "", patch);
  REQUIRE(tty.exit_code == 0);
  CHECK(tty.out.compare(0, Drawn("export-context: 0/" + total + " bytes written").size(),
                        Drawn("export-context: 0/" + total + " bytes written")) == 0);
  CHECK(tty.out.size() >= kErase.size());
  CHECK(Contains(tty.out,
                 Drawn("export-context: " + total + "/" + total + " bytes written") + kErase));
  CHECK(AfterProgress(tty.out).empty());
  CHECK(ReadFile(patch) == piped.out);  // stdout's bytes are the export's, byte for byte

  // --output FILE: the same two ends around the one atomic write.
  const std::string output = dir.path() + "/output.patch";
  std::vector<std::string> to_file = args;
  to_file.insert(to_file.end(), {"--output", output});
  const RunResult written = OnTerminal(to_file, "xterm");
  REQUIRE(written.exit_code == 0);
  CHECK(written.out == Drawn("export-context: 0/" + total + " bytes written") +
                           Drawn("export-context: " + total + "/" + total + " bytes written") +
                           kErase);
  CHECK(ReadFile(output) == piped.out);

  // stdout on the terminal itself: no progress line over the patch's text.
  const RunResult shared = OnTerminal(args, "xterm");
  REQUIRE(shared.exit_code == 0);
  CHECK_FALSE(Contains(shared.out, "bytes written"));
  CHECK(shared.out == AsTerminal(piped.out));
}

TEST_CASE("colour: fsck findings and NOT clean on a terminal and plain when piped") {
  ThreeLineages s;
  WriteFile(s.repo.store_root() + "/v2/junk.txt", "junk\n");
  const RunResult piped = Piped(s.Args({"fsck"}));
  REQUIRE(piped.exit_code == 7);
  const std::string path = s.repo.store_root() + "/v2/junk.txt";
  CHECK(piped.out == "unexpected_entry  -  " + path +
                         "  not a lineage directory\nNOT clean: 3 lineage(s), 0 tombstone(s), 0 "
                         "quarantine entries, 3 pin ref(s), 1 finding(s)\n");
  const RunResult tty = OnTerminal(s.Args({"fsck"}), "xterm");
  CHECK(tty.exit_code == 7);
  CHECK(AfterProgress(tty.out) == "\033[31munexpected_entry\033[0m  -  " + path +
                                      "  not a lineage directory\r\n\033[31mNOT clean\033[0m: 3 "
                                      "lineage(s), 0 tombstone(s), 0 quarantine entries, 3 pin "
                                      "ref(s), 1 finding(s)\r\n");
  CHECK(AfterProgress(OnTerminal(s.Args({"fsck"}), "xterm", "1").out) == AsTerminal(piped.out));
}

TEST_CASE("colour: states and the error code on a terminal and never with NO_COLOR or piped") {
  ThreeLineages s;
  const RunResult list = OnTerminal(s.Args({"list"}), "xterm");
  REQUIRE(list.exit_code == 0);
  CHECK(Contains(list.out, s.approved + "  \033[32mapproved\033[0m  "));
  const RunResult list_piped = Piped(s.Args({"list"}));
  CHECK(list.out != AsTerminal(list_piped.out));
  CHECK(WithoutColour(list.out) == AsTerminal(list_piped.out));
  CHECK_FALSE(Contains(list_piped.out, "\033"));
  CHECK(OnTerminal(s.Args({"list"}), "xterm", "1").out == AsTerminal(list_piped.out));

  const RunResult status = OnTerminal(s.Args({"status"}), "xterm");
  REQUIRE(status.exit_code == 0);
  CHECK(Contains(status.out, s.approved + "  \033[32mapproved\033[0m  "));
  CHECK(WithoutColour(status.out) == AsTerminal(Piped(s.Args({"status"})).out));

  const std::vector<std::string> missing =
      s.Args({"status", "--lineage", "review-0123456789abcdef"});
  const RunResult error = OnTerminal(missing, "xterm");
  CHECK(error.exit_code == 3);
  CHECK(Contains(error.out, "gentle-ai: \033[31mnot_found\033[0m: "));
  const RunResult error_piped = Piped(missing);
  CHECK(error_piped.exit_code == 3);
  CHECK(error_piped.err.compare(0, 22, "gentle-ai: not_found: ") == 0);
  CHECK(OnTerminal(missing, "xterm", "1").out == AsTerminal(error_piped.err));
  CHECK(OnTerminal(missing, "dumb").out == AsTerminal(error_piped.err));
  CHECK(OnTerminal(s.Args({"status", "--lineage", "review-0123456789abcdef"}, true), "xterm").out ==
        AsTerminal(
            GentleAi(s.Args({"status", "--lineage", "review-0123456789abcdef"}, true), "").out));
}

}  // namespace
}  // namespace gentle::testing
