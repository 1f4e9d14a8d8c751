// Human output shows control bytes, bidirectional controls and invalid UTF-8 escaped
// (store/visible_text.h; docs/reliability.md, "Human output: no control bytes from recorded
// text"): the function byte for byte, a fetched history whose verdict body holds them (built with
// the real git and the binary's own push and fetch, the body forged in the origin clone) shown by
// `review show` on the other side, and error messages naming a value given on the command line.
// JSON output carries the same text as JSON strings.
#include "store/visible_text.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/files.h"
#include "tests/support/forged_history.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_env.h"
#include "tests/support/git_repo.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

// One of each: a raw 0x9b (8-bit CSI), U+009B encoded, U+202E (right-to-left override), ESC,
// invalid UTF-8 (0xff 0xfe; a truncated three-byte sequence), DEL, U+200E and U+2066, and text
// that stays as it is (accents, CJK, an emoji, tab).
const std::string kHostile =
    "raw \x9b"
    "2J, encoded \xc2\x9b"
    "2J, \xe2\x80\xae"
    "reversed, esc \x1b[31mred, bad \xff\xfe, cut \xe2\x80, del \x7f, lrm \xe2\x80\x8e, "
    "isolate \xe2\x81\xa6.\n"
    "Kept: caf\xc3\xa9 \xe6\xbc\xa2 \xf0\x9f\x98\x80\tend";
const std::string kShown =
    "raw \\x9b2J, encoded \\u009b2J, \\u202ereversed, esc ^[[31mred, bad \\xff\\xfe, cut "
    "\\xe2\\x80, del ^?, lrm \\u200e, isolate \\u2066.\n"
    "Kept: caf\xc3\xa9 \xe6\xbc\xa2 \xf0\x9f\x98\x80\tend";

TEST_CASE("visible text: every byte that is not printable UTF-8 is escaped - the rest kept") {
  CHECK(store::VisibleText(kHostile) == kShown);
  CHECK(store::VisibleText("") == "");
  // C0 in caret notation but newline and tab; C1 and bidi controls as \u; overlong forms,
  // surrogates and code points past U+10FFFF are not UTF-8: each byte as \x.
  CHECK(store::VisibleText(std::string("\x00\x01\r\n\t\x1f", 6)) == "^@^A^M\n\t^_");
  CHECK(store::VisibleText("\xc2\x80\xc2\x9f\xc2\xa0") == "\\u0080\\u009f\xc2\xa0");
  CHECK(store::VisibleText("\xd8\x9c\xe2\x80\x8f\xe2\x80\xaa\xe2\x81\xa9\xe2\x81\xaa") ==
        "\\u061c\\u200f\\u202a\\u2069\xe2\x81\xaa");
  CHECK(store::VisibleText("\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80") ==
        "\\xc0\\xaf\\xed\\xa0\\x80\\xf4\\x90\\x80\\x80");
  CHECK(store::VisibleLine("one\r\ntwo\x1b") == "one  two^[");
}

// A lineage in A with a REQUEST_CHANGES verdict whose body is then forged to `body`, pushed to the
// bare origin with `review push` and fetched into the clone B with `review fetch`.
struct Fetched {
  TempDir tmp;
  LifecycleRepo a;
  std::string lineage;
  std::string b;
  explicit Fetched(const std::string& body) {
    const std::string origin = tmp.path() + "/origin.git";
    REQUIRE(GitRun(tmp.path(), {"init", "-q", "--bare", origin}).exit_code == 0);
    a.GitOk({"remote", "add", "origin", "file://" + origin});
    a.GitOk({"push", "-q", "origin", "HEAD:refs/heads/main"});
    lineage = a.StartNew()["lineage"];
    RunResult asked = a.Review({"verdict", "--lineage", lineage, "--verdict", "REQUEST_CHANGES",
                                "--actor", "ana", "--role", "reviewer", "--body", "Placeholder."});
    INFO(asked.out << asked.err);
    REQUIRE(asked.exit_code == 0);
    ForgeVerdictBody(a, lineage, 1, body);
    RunResult pushed = a.Review({"push", "--lineage", lineage});
    INFO(pushed.out << pushed.err);
    REQUIRE(pushed.exit_code == 0);
    b = tmp.path() + "/b";
    REQUIRE(GitRun(tmp.path(), {"clone", "-q", "-b", "main", "file://" + origin, b}).exit_code ==
            0);
    RunResult fetched = Review({"fetch"}, true);
    INFO(fetched.out << fetched.err);
    REQUIRE(fetched.exit_code == 0);
    REQUIRE(fetched.Json()["lineages"][0]["verified"] == true);
  }
  RunResult Review(const std::vector<std::string>& args, bool json) const {
    std::vector<std::string> full = {"review"};
    full.insert(full.end(), args.begin(), args.end());
    full.insert(full.end(), {"--cwd", b});
    if (json) full.push_back("--json");
    return GentleAi(full, b);
  }
};

TEST_CASE("visible text: a fetched verdict body with C1 - bidi - ESC and invalid UTF-8 bytes") {
  Fetched f(kHostile);
  RunResult shown = f.Review({"show", "--lineage", f.lineage}, false);
  INFO(shown.err);
  REQUIRE(shown.exit_code == 0);
  // The body, indented as git log indents a message, every hostile byte escaped.
  CHECK(shown.out.find("\n    raw \\x9b2J, encoded \\u009b2J, \\u202ereversed, esc ^[[31mred, bad "
                       "\\xff\\xfe, cut \\xe2\\x80, del ^?, lrm \\u200e, isolate \\u2066.\n"
                       "    Kept: caf\xc3\xa9 \xe6\xbc\xa2 \xf0\x9f\x98\x80\tend\n") !=
        std::string::npos);
  for (const std::string raw : {"\x9b", "\xc2\x9b", "\xe2\x80\xae", "\x1b", "\xff", "\x7f"}) {
    CHECK(shown.out.find(raw) == std::string::npos);
  }
  // --color=always too: the only ESC bytes are the view's own colours.
  RunResult coloured = f.Review({"show", "--lineage", f.lineage, "--color=always"}, false);
  REQUIRE(coloured.exit_code == 0);
  CHECK(coloured.out.find("\x1b[31mred") == std::string::npos);
  CHECK(coloured.out.find("\\u202ereversed, esc ^[[31mred") != std::string::npos);
  // JSON carries the recorded text as a JSON string: parseable, the text escaped as JSON.
  RunResult json = f.Review({"show", "--lineage", f.lineage}, true);
  REQUIRE(json.exit_code == 0);
  CHECK(json.out.find('\x1b') == std::string::npos);
  CHECK(json.out.find("\\u001b[31mred") != std::string::npos);
}

TEST_CASE("visible text: review comment is escaped on a terminal - verbatim into a pipe") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  RunResult asked = repo.Review({"verdict", "--lineage", lineage, "--verdict", "REQUEST_CHANGES",
                                 "--actor", "ana", "--role", "reviewer", "--body", "Placeholder."});
  REQUIRE(asked.exit_code == 0);
  // Valid UTF-8 (the comment rule refuses anything else): ESC, U+202E and U+009B.
  const std::string body =
      "esc \x1b[31mred, \xe2\x80\xaereversed, csi \xc2\x9b"
      "2J.";
  ForgeVerdictBody(repo, lineage, 1, body);
  RunResult piped = repo.Review({"comment", "--lineage", lineage}, {}, false);
  INFO(piped.err);
  REQUIRE(piped.exit_code == 0);
  CHECK(piped.out.find("\n\n" + body + "\n\n### Verdict: REQUEST_CHANGES\n") != std::string::npos);
  Env env = GitEnv();
  env["TERM"] = "xterm";
  const std::string command =
      std::string(GENTLE_AI_BIN) + " review comment --lineage " + lineage + " --cwd " + repo.root();
  RunResult shown = Run({"script", "-qec", command, "/dev/null"}, "", env);
  INFO(shown.err);
  REQUIRE(shown.exit_code == 0);
  CHECK(shown.out.find("\r\n\r\nesc ^[[31mred, \\u202ereversed, csi \\u009b2J.\r\n\r\n") !=
        std::string::npos);
  CHECK(shown.out.find('\x1b') == std::string::npos);
}

TEST_CASE("visible text: an error message naming a value shows its control bytes escaped") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  const std::string value = "\x1b]0;owned\x07\xe2\x80\xae\x9b";
  RunResult run = repo.Review({"show", "--lineage", lineage, "--color", value}, {}, false);
  CHECK(run.exit_code == 2);
  CHECK(run.out.empty());
  CHECK(run.err ==
        "gentle-ai: usage: --color must be auto, always or never, got \"^[]0;owned^G\\u202e"
        "\\x9b\"\n");
  // Under --json the message is the value itself, escaped as JSON.
  RunResult json = repo.Review({"show", "--lineage", lineage, "--color", value});
  CHECK(json.exit_code == 2);
  CHECK(json.out.find('\x1b') == std::string::npos);
  CHECK(json.out.find("\\u001b]0;owned\\u0007") != std::string::npos);
}

}  // namespace
}  // namespace gentle::testing
