// review show (docs/show.md): the terminal view (golden file, colour forced with --color=always;
// the patch colours checked against git's own `--color=always` output), the JSON view (golden
// file), paging as git pages, the HTML view opened in headless chromium (no script runs, nothing
// is fetched, every file name, verdict and digest is in the rendered DOM; a screenshot of each
// layout kept under <build>/show-artifacts/), burned, abandoned and fetched-only lineages, and
// the refusals. Golden files (tests/golden/) are written by hand; their @NAME@ placeholders are
// filled from git (commit ids, trailers, trees, blobs) and from the history's record files.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "export/git_flags.h"
#include "export/markdown_html.h"
#include "export/review_show.h"
#include "export/show_text.h"
#include "store/sha256.h"
#include "store/status.h"
#include "tests/support/files.h"
#include "tests/support/forged_history.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_env.h"
#include "tests/support/git_oracle.h"
#include "tests/support/git_repo.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/lockfiles.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

const Env kFixed = {{"GENTLE_FIXED_TIME", "2026-11-30T09:00:00Z"}};
const std::string kGolden = std::string(GENTLE_SOURCE_DIR) + "/tests/golden/";

// Round 1 and round 2 of a.txt (committed as "one\n"): a removed line, added lines with a tab
// indent, trailing blanks, and a space before a tab.
const std::string kRound1 = "uno\n";
const std::string kRound2 = "uno\n\ttwo  \n \tthree\n";

std::vector<std::string> Verdict(const std::string& lineage, const std::string& verdict,
                                 const std::string& actor, const std::string& body) {
  return {"verdict", "--lineage", lineage,    "--verdict", verdict, "--actor",
          actor,     "--role",    "reviewer", "--body",    body};
}

std::string Replace(std::string text, const std::map<std::string, std::string>& values) {
  for (const auto& [name, value] : values) {
    const std::string key = "@" + name + "@";
    for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at)) {
      text.replace(at, key.size(), value);
      at += value.size();
    }
  }
  return text;
}

// A lineage through two rounds under a fixed clock: start, REQUEST_CHANGES (a Markdown body),
// revise, APPROVE; `sign` signs the approval.
std::string TwoRounds(LifecycleRepo& repo, bool sign = false) {
  repo.Write("a.txt", kRound1);
  RunResult started = repo.Review({"start"}, kFixed);
  INFO(started.out << started.err);
  REQUIRE(started.exit_code == 0);
  const std::string lineage = started.Json()["lineage"];
  const std::string first = "Say *uno*.\n\nKeep the list:\n- one";
  RunResult asked = repo.Review(Verdict(lineage, "REQUEST_CHANGES", "ana", first), kFixed);
  INFO(asked.out << asked.err);
  REQUIRE(asked.exit_code == 0);
  repo.Write("a.txt", kRound2);
  REQUIRE(repo.Review({"revise", "--lineage", lineage}, kFixed).exit_code == 0);
  std::vector<std::string> approve = Verdict(lineage, "APPROVE", "bo", "Looks right.");
  if (sign) approve.push_back("--sign");
  RunResult approved = repo.Review(approve, kFixed);
  INFO(approved.out << approved.err);
  REQUIRE(approved.exit_code == 0);
  return lineage;
}

// The hand-written patch of each round (checked against the pinned git oracle below).
std::string ExpectedPatch(const std::string& blob0, const std::string& blob, int round) {
  std::string patch = "diff --git a/a.txt b/a.txt\nindex " + blob0 + ".." + blob +
                      " 100644\n--- a/a.txt\n+++ b/a.txt\n";
  if (round == 1) return patch + "@@ -1 +1 @@\n-one\n+uno\n";
  return patch + "@@ -1 +1,3 @@\n-one\n+uno\n+\ttwo  \n+ \tthree\n";
}

// The placeholder values of the golden files, read from git and the history's records.
std::map<std::string, std::string> Values(const LifecycleRepo& repo, const std::string& lineage) {
  std::map<std::string, std::string> v;
  v["LINEAGE"] = lineage;
  const std::string log = repo.GitOk(
      {"log", "--reverse", "--format=%H %(trailers:key=Revision,valueonly)", ReviewRef(lineage)});
  std::vector<std::string> commits;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    const std::string n = std::to_string(commits.size() + 1);
    commits.push_back(line.substr(0, 40));
    v["COMMIT" + n] = line.substr(0, 40);
    v["REV" + n] = line.substr(41);
  }
  REQUIRE(commits.size() == 4);
  v["BASE"] = Trim(repo.GitOk({"rev-parse", "HEAD^{tree}"}));
  v["BLOB0"] = Trim(repo.GitOk({"rev-parse", "HEAD:a.txt"}));
  const std::string git_dir = repo.common_dir();
  for (int round : {1, 2}) {
    const std::string commit = commits[round == 1 ? 1 : 3];  // the round's newest commit
    const std::string n = std::to_string(round);
    v["CAND" + n] = Trim(repo.GitOk({"rev-parse", commit + ":candidate"}));
    v["BLOB" + n] = Trim(repo.GitOk({"rev-parse", commit + ":candidate/a.txt"}));
    const Json record = Json::parse(repo.GitOk({"show", commit + ":review-state.json"}));
    v["PATHS" + n] = record["state"]["current_snapshot"]["paths_digest"];
    const std::string patch = ExpectedPatch(v["BLOB0"], v["BLOB" + n], round);
    auto oracle = OracleDiff(git_dir, v["BASE"], v["CAND" + n]);
    REQUIRE(oracle.ok());
    CHECK(FirstDifference(patch, *oracle) == "");
    v["PATCH" + n] = "sha256:" + store::Sha256Hex(patch);
    v["SIZE" + n] = std::to_string(patch.size());
  }
  return v;
}

// `text` with every "\e" as the escape byte.
std::string Escapes(std::string text) {
  for (size_t at = text.find("\\e"); at != std::string::npos; at = text.find("\\e", at)) {
    text.replace(at, 2, "\033");
  }
  return text;
}

TEST_CASE("show: the terminal view of two rounds is the golden file - colour forced") {
  LifecycleRepo repo;
  const std::string lineage = TwoRounds(repo);
  const auto values = Values(repo, lineage);
  RunResult shown =
      repo.Review({"show", "--lineage", lineage, "--color=always"}, {{"NO_COLOR", "1"}}, false);
  INFO(shown.err);
  REQUIRE(shown.exit_code == 0);
  const std::string expected = Replace(Escapes(ReadFile(kGolden + "show-two-rounds.txt")), values);
  CHECK(FirstDifference(expected, shown.out) == "");
  // Piped without --color: the same text without a single escape byte, the patch as
  // export-context prints it.
  RunResult plain = repo.Review({"show", "--lineage", lineage}, {{"TERM", "xterm"}}, false);
  REQUIRE(plain.exit_code == 0);
  CHECK(plain.out.find('\033') == std::string::npos);
  RunResult exported = repo.Review({"export-context", "--lineage", lineage}, {}, false);
  REQUIRE(exported.exit_code == 0);
  CHECK(plain.out.size() > exported.out.size());
  CHECK(plain.out.substr(plain.out.size() - exported.out.size()) == exported.out);
  // --round 1: that round's patch after its digests.
  RunResult first = repo.Review({"show", "--lineage", lineage, "--round", "1"}, {}, false);
  REQUIRE(first.exit_code == 0);
  CHECK(first.out.find("round 1 of 2\nRevision:       " + values.at("REV2") +
                       "\nBase tree:      " + values.at("BASE") +
                       "\nCandidate tree: " + values.at("CAND1")) != std::string::npos);
  const std::string patch1 = ExpectedPatch(values.at("BLOB0"), values.at("BLOB1"), 1);
  CHECK(first.out.substr(first.out.size() - patch1.size()) == patch1);
}

TEST_CASE("show: the JSON view of two rounds is the golden file and its schema") {
  LifecycleRepo repo;
  const std::string lineage = TwoRounds(repo);
  RunResult shown = repo.Review({"show", "--lineage", lineage});
  INFO(shown.out << shown.err);
  REQUIRE(shown.exit_code == 0);
  const auto expected = nlohmann::ordered_json::parse(
      Replace(ReadFile(kGolden + "show-two-rounds.json"), Values(repo, lineage)));
  CHECK(nlohmann::ordered_json::parse(shown.out).dump() == expected.dump());
}

// The patch colours are git's: a patch with every kind of line, coloured by git itself.
TEST_CASE("show: patch colours are those git diff --color=always prints") {
  TempDir dir;
  const std::string root = InitRepo(dir.path());
  auto write = [&](const std::string& name, const std::string& text) {
    WriteFile(root + "/" + name, text);
  };
  write("f.c", "int f(void)\n{\n  a;\n  b;\n  c;\n  d;\n  e;\n  f;\n  g;\n}\n");
  write("gone.txt", "gone\n");
  write("bin.dat", std::string("\0\1\2\3", 4));
  write("tail.txt", "no newline");
  Git(root, {"add", "-A"});
  Git(root, {"commit", "-q", "-m", "base"});
  const std::string base = Trim(Git(root, {"rev-parse", "HEAD^{tree}"}));
  write("f.c",
        "int f(void)\n{\n  a;\n  b;\n  c;\n  d;\n  E;\n\n \tx \n\t\ty\n\t  \tz\r\n  f;\n"
        "  g;\n}\n");
  fs::remove(root + "/gone.txt");
  write("bin.dat", std::string("\0\1\2\4", 4));
  write("tail.txt", "no newline\n");
  write("empty.txt", "");
  write("blank.txt", "\t\n  \n");
  Git(root, {"add", "-A"});
  Git(root, {"commit", "-q", "-m", "candidate"});
  const std::string candidate = Trim(Git(root, {"rev-parse", "HEAD^{tree}"}));
  auto plain = OracleDiff(root + "/.git", base, candidate);
  REQUIRE(plain.ok());
  std::vector<std::string> argv = exporter::OracleArgv(base, candidate);
  argv.insert(argv.begin() + 1, "--git-dir=" + root + "/.git");
  for (std::string& arg : argv) {
    if (arg == "--no-color") arg = "--color=always";
  }
  RunResult coloured = Run(argv, "", OracleEnv());
  REQUIRE(coloured.exit_code == 0);
  REQUIRE(coloured.out.find("\033[41m") != std::string::npos);
  CHECK(FirstDifference(coloured.out, exporter::ColourPatch(*plain)) == "");
}

// `script` gives the command a terminal; the pager is a shell command that keeps what it got.
TEST_CASE("show: on a terminal the view is coloured and paged as git pages") {
  LifecycleRepo repo;
  const std::string lineage = TwoRounds(repo);
  TempDir dir;
  const std::string paged = dir.path() + "/paged";
  const std::string command =
      std::string(GENTLE_AI_BIN) + " review show --lineage " + lineage + " --cwd " + repo.root();
  const std::string unset = "env -u LESS -u LV ";  // as the user's environment may set them
  auto on_terminal = [&](const Env& extra) {
    Env env = GitEnv();
    env["TERM"] = "xterm";
    env["NO_COLOR"] = "";
    env["GIT_PAGER"] = "";
    env["PAGER"] = "";
    for (const auto& [name, value] : extra) env[name] = value;
    fs::remove(paged);
    return Run({"script", "-qec", unset + command, "/dev/null"}, "", env);
  };
  RunResult piped = repo.Review({"show", "--lineage", lineage, "--color=always"}, {}, false);
  REQUIRE(piped.exit_code == 0);
  // GIT_PAGER wins over core.pager and PAGER, and gets LESS=FRX.
  repo.GitOk({"config", "core.pager", "cat > " + paged + ".core"});
  RunResult run =
      on_terminal({{"GIT_PAGER", "printf %s \"$LESS\" > " + paged + ".less; cat > " + paged},
                   {"PAGER", "cat > " + paged + ".pager"}});
  REQUIRE(run.exit_code == 0);
  CHECK(ReadFile(paged) == piped.out);
  CHECK(ReadFile(paged + ".less") == "FRX");
  CHECK_FALSE(Exists(paged + ".core"));
  CHECK_FALSE(Exists(paged + ".pager"));
  // Unset GIT_PAGER: core.pager.
  Env env = GitEnv();
  env["TERM"] = "xterm";
  env["NO_COLOR"] = "";
  env["PAGER"] = "cat > " + paged + ".pager";
  run = Run({"script", "-qec", unset + "-u GIT_PAGER " + command, "/dev/null"}, "", env);
  REQUIRE(run.exit_code == 0);
  CHECK(ReadFile(paged + ".core") == piped.out);
  // NO_COLOR on a terminal: no colour (the pager gets the plain text).
  run = on_terminal({{"GIT_PAGER", "cat > " + paged}, {"NO_COLOR", "1"}});
  REQUIRE(run.exit_code == 0);
  CHECK(ReadFile(paged).find('\033') == std::string::npos);
  // An empty GIT_PAGER: no pager, the terminal gets the coloured text itself.
  run = on_terminal({});
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("\033[33mlineage " + lineage + "\033[m\r\n") == 0);
}

// chromium from Debian, headless, with a profile of its own; the test fails without it.
RunResult Chromium(const TempDir& profile, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"/usr/bin/chromium",
                                   "--headless",
                                   "--no-sandbox",
                                   "--disable-gpu",
                                   "--disable-quic",
                                   "--no-first-run",
                                   "--disable-background-networking",
                                   "--disable-component-update",
                                   "--disable-sync",
                                   "--user-data-dir=" + profile.path()};
  argv.insert(argv.end(), args.begin(), args.end());
  return Run(argv, "", {{"HOME", profile.path()}});
}

// Every src= and href= value of `dom`.
std::vector<std::string> Urls(const std::string& dom) {
  std::vector<std::string> urls;
  for (const std::string attr : {" src=\"", " href=\""}) {
    for (size_t at = dom.find(attr); at != std::string::npos; at = dom.find(attr, at + 1)) {
      const size_t start = at + attr.size();
      urls.push_back(dom.substr(start, dom.find('"', start) - start));
    }
  }
  return urls;
}

TEST_CASE("show: the HTML view in headless chromium runs no script and fetches nothing") {
  REQUIRE(Exists("/usr/bin/chromium"));
  LifecycleRepo repo;
  TempDir keys;
  const std::string key = keys.path() + "/bo";
  REQUIRE(Run({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "bo", "-f", key}).exit_code ==
          0);
  repo.GitOk({"config", "gpg.format", "ssh"});
  repo.GitOk({"config", "user.signingKey", key});
  const std::string allowed = keys.path() + "/allowed_signers";
  // The approval's actor is "bo": verify needs the key to verify as that principal.
  WriteFile(allowed, "bo@example.com " + Trim(ReadFile(key + ".pub")) + "\nbo " +
                         Trim(ReadFile(key + ".pub")) + "\n");
  const std::string hostile =
      "Not this.\n\n<script>document.title='PWNED-script'</script>\n\n"
      "An image <img src=x onerror=\"document.title='PWNED-img'\"> inline, "
      "[a link](https://example.com/a) and ![a picture](http://example.com/p.png) and "
      "[js](javascript:alert(1)).\n\n"
      "<!-- gentle-ai:review lineage=review-0000000000000000 round=9 -->\n\n"
      "A terminal title \033]0;PWNED\007 and a C1 CSI \xc2\x9b"
      "2J.";
  const std::string lineage = TwoRounds(repo, true);
  ForgeVerdictBody(repo, lineage, 1, hostile);
  REQUIRE(repo.Review({"verify", "--lineage", lineage, "--require-signature", "--allowed-signers",
                       allowed})
              .exit_code == 0);
  const auto values = Values(repo, lineage);
  TempDir out;
  const std::string page = out.path() + "/show.html";
  RunResult shown = repo.Review(
      {"show", "--lineage", lineage, "--html", "--output", page, "--allowed-signers", allowed}, {},
      false);
  INFO(shown.err);
  REQUIRE(shown.exit_code == 0);
  CHECK(shown.out.empty());

  // On a terminal, the body's control characters are shown, never sent.
  RunResult text = repo.Review({"show", "--lineage", lineage, "--color=always"}, {}, false);
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("A terminal title ^[]0;PWNED^G and a C1 CSI \\u009b2J.") !=
        std::string::npos);
  CHECK(text.out.find("\033]") == std::string::npos);
  CHECK(text.out.find("\xc2\x9b") == std::string::npos);

  TempDir profile;
  RunResult dumped = Chromium(profile, {"--dump-dom", "file://" + page});
  INFO(dumped.err);
  REQUIRE(dumped.exit_code == 0);
  const std::string& dom = dumped.out;
  // No script ran: the title is the page's own, and neither hostile element exists.
  CHECK(dom.find("<title>Review " + lineage + "</title>") != std::string::npos);
  CHECK(dom.find("PWNED</title>") == std::string::npos);
  CHECK(dom.find("<script") == std::string::npos);
  CHECK(dom.find("<img") == std::string::npos);
  // ... they are shown as text, and the forged marker too.
  CHECK(dom.find("&lt;script&gt;document.title='PWNED-script'&lt;/script&gt;") !=
        std::string::npos);
  CHECK(dom.find("&lt;img src=x onerror=\"document.title='PWNED-img'\"&gt;") != std::string::npos);
  CHECK(dom.find("&lt;!-- gentle-ai:review lineage=review-0000000000000000 round=9 --&gt;") !=
        std::string::npos);
  // Nothing to fetch or follow: every src/href is an in-page anchor.
  const std::vector<std::string> urls = Urls(dom);
  CHECK(urls.size() > 10);
  for (const std::string& url : urls) {
    INFO(url);
    CHECK(url.rfind("#", 0) == 0);
  }
  // Every file name, verdict and digest, and the verified signature.
  for (const std::string& wanted :
       {std::string("a.txt"), std::string("REQUEST_CHANGES"), std::string("APPROVE"),
        values.at("CAND1"), values.at("CAND2"), values.at("BASE"), values.at("PATCH1"),
        values.at("PATCH2"), values.at("PATHS1"), values.at("PATHS2"), values.at("REV4"),
        std::string("verified (bo@example.com)"), std::string("Interdiff: round 1 to round 2")}) {
    INFO(wanted);
    CHECK(dom.find(wanted) != std::string::npos);
  }
  // The interdiff is export-context --since-round 1's patch.
  RunResult since =
      repo.Review({"export-context", "--lineage", lineage, "--since-round", "1"}, {}, false);
  REQUIRE(since.exit_code == 0);
  CHECK(dom.find("sha256:" + store::Sha256Hex(since.out)) != std::string::npos);
  CHECK(dom.find(">+ \tthree<") != std::string::npos);

  // A screenshot of each layout, kept for a person to look at.
  const std::string artifacts = std::string(GENTLE_BUILD_DIR) + "/show-artifacts";
  fs::create_directories(artifacts);
  for (const std::string layout : {"unified", "split"}) {
    const std::string png = artifacts + "/show-" + layout + ".png";
    fs::remove(png);
    TempDir shot_profile;
    RunResult shot = Chromium(shot_profile, {"--screenshot=" + png, "--window-size=1280,3200",
                                             "file://" + page + "#" + layout});
    INFO(shot.err);
    REQUIRE(shot.exit_code == 0);
    REQUIRE(Exists(png));
    CHECK(ReadFile(png).rfind("\x89PNG\r\n\x1a\n", 0) == 0);
  }
}

TEST_CASE("show: burned - abandoned and fetched-only lineages show their history and source") {
  LifecycleRepo repo;
  const std::string lineage = TwoRounds(repo);
  // A burned lineage (its approval's token comes from the verdict).
  const auto burned = repo.StartApproved();
  REQUIRE(repo.Review({"burn", "--lineage", burned.lineage, "--token", burned.token,
                       "--expected-revision", burned.revision})
              .exit_code == 0);
  Json shown = repo.ReviewOk({"show", "--lineage", burned.lineage});
  CHECK(shown["state"] == "consumed");
  CHECK(shown["source"].is_null());
  CHECK(shown["events"].back()["verb"] == "burn");
  REQUIRE(shown["rounds"].size() == 1);
  CHECK(shown["rounds"][0]["patch"]["sha256"].is_string());

  const std::string abandoned = repo.StartNew()["lineage"];
  REQUIRE(repo.Review({"abandon", "--lineage", abandoned, "--reason", "operator_disposition",
                       "--actor", "ops"})
              .exit_code == 0);
  shown = repo.ReviewOk({"show", "--lineage", abandoned});
  CHECK(shown["state"] == "retired");
  CHECK(shown["events"].back()["verb"] == "abandon");

  // A clone that only fetched the histories: source is the remote.
  TempDir tmp;
  const std::string origin = tmp.path() + "/origin.git";
  REQUIRE(Run({"git", "init", "-q", "--bare", origin}, "", GitEnv()).exit_code == 0);
  repo.GitOk({"remote", "add", "origin", "file://" + origin});
  repo.GitOk({"push", "-q", "origin", "HEAD:refs/heads/main"});
  REQUIRE(repo.Review({"push"}).exit_code == 0);
  const std::string clone = tmp.path() + "/clone";
  REQUIRE(Run({"git", "clone", "-q", "-b", "main", "file://" + origin, clone}, "", GitEnv())
              .exit_code == 0);
  REQUIRE(GentleAi({"review", "fetch", "--cwd", clone, "--json"}, clone).exit_code == 0);
  RunResult fetched =
      GentleAi({"review", "show", "--lineage", lineage, "--cwd", clone, "--json"}, clone);
  INFO(fetched.out << fetched.err);
  REQUIRE(fetched.exit_code == 0);
  const Json local = repo.ReviewOk({"show", "--lineage", lineage});
  Json remote = fetched.Json();
  CHECK(remote["source"] == "origin");
  remote["source"] = nullptr;
  CHECK(remote == local);
  // A burned lineage the clone knows only from the remote: its history to the burn commit.
  RunResult spent =
      GentleAi({"review", "show", "--lineage", burned.lineage, "--cwd", clone, "--json"}, clone);
  INFO(spent.out << spent.err);
  REQUIRE(spent.exit_code == 0);
  CHECK(spent.Json()["source"] == "origin");
  CHECK(spent.Json()["state"] == "consumed");
  CHECK(spent.Json()["events"].back()["verb"] == "burn");
}

TEST_CASE("show: unknown lineage - corrupted history - bad flags get the usual codes") {
  LifecycleRepo repo;
  const std::string lineage = TwoRounds(repo);
  const int usage = ExitCodeFor(Code::kUsage);
  const int not_found = ExitCodeFor(Code::kNotFound);
  repo.ExpectRefused({"show", "--lineage", "review-0123456789abcdef"}, "not_found", not_found);
  repo.ExpectRefused({"show", "--lineage", "Not-A-Lineage"}, "usage", usage);
  repo.ExpectRefused({"show", "--lineage", lineage, "--round", "3"}, "not_found", not_found);
  repo.ExpectRefused({"show", "--lineage", lineage, "--round", "0"}, "usage", usage);
  repo.ExpectRefused({"show", "--lineage", lineage, "--color", "sometimes"}, "usage", usage);
  repo.ExpectRefused({"show", "--lineage", lineage, "--output", "x.html"}, "usage", usage);
  repo.ExpectRefused({"show", "--lineage", lineage, "--html"}, "usage", usage);  // with --json
  // A history ref moved to a commit that is no history commit.
  repo.GitOk({"update-ref", ReviewRef(lineage), "HEAD"});
  repo.ExpectRefused({"show", "--lineage", lineage}, "corrupted", ExitCodeFor(Code::kCorrupted));
  RunResult html = repo.Review({"show", "--lineage", lineage, "--html"}, {}, false);
  CHECK(html.exit_code == ExitCodeFor(Code::kCorrupted));
  CHECK(html.out.empty());
}

// A round over the byte budget keeps the budget refusal instead of a diff (a small budget stands
// in for 4 MiB).
TEST_CASE("show: a round over the byte budget shows the budget refusal") {
  LifecycleRepo repo;
  const std::string lineage = TwoRounds(repo);
  exporter::ShowRequest request;
  request.cwd = repo.root();
  request.lineage = lineage;
  request.derive_all = true;
  request.max_bytes = 180;  // round 1's patch (169 bytes) fits, round 2's (188) does not
  auto view = exporter::ReadShowView(request);
  REQUIRE(view.ok());
  REQUIRE(view->rounds.size() == 2);
  CHECK(view->rounds[0].diff.derived);
  CHECK_FALSE(view->rounds[1].diff.derived);
  CHECK(view->rounds[1].diff.refusal.code() == Code::kBudgetExceeded);
  const std::string text = exporter::RenderShowText(*view, false);
  CHECK(text.find("Patch:          not shown: budget_exceeded: ") != std::string::npos);
  CHECK(text.find("diff --git") == std::string::npos);
}

TEST_CASE("show: a round with generated entries is the reviewer's view - its summaries marked") {
  LifecycleRepo repo;
  repo.Write("package-lock.json", NpmLockfile(3000, 0, 1));
  repo.Write("src/app.js", "export const version = 1;\n");
  repo.GitOk({"add", "."});
  repo.GitOk({"commit", "-q", "-m", "deps"});
  repo.Write("package-lock.json", NpmLockfile(3000, 1, 1));
  repo.Write("src/app.js", "export const version = 2;\n");
  const std::string lineage = repo.ReviewOk({"start"})["lineage"];
  RunResult review =
      repo.Review({"export-context", "--lineage", lineage, "--view", "review"}, {}, false);
  REQUIRE(review.exit_code == 0);
  const std::string& view = review.out;
  REQUIRE(view.find("summary: added=") != std::string::npos);

  // Text: the summarised path named after the digests, then the review view's bytes.
  RunResult text = repo.Review({"show", "--lineage", lineage}, {{"TERM", "xterm"}}, false);
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("Patch:          sha256:" + store::Sha256Hex(view) + " (" +
                      std::to_string(view.size()) +
                      " bytes, 2 paths)\nSummarised:     package-lock.json (generated; no "
                      "line-level claims)\n\n") != std::string::npos);
  CHECK(text.out.find("Summarised:     src/app.js") == std::string::npos);
  CHECK(text.out.substr(text.out.size() - view.size()) == view);

  // JSON: the same digest and size, and the summarised paths.
  const Json shown = repo.ReviewOk({"show", "--lineage", lineage});
  const Json& patch = shown["rounds"][0]["patch"];
  CHECK(patch["sha256"] == "sha256:" + store::Sha256Hex(view));
  CHECK(patch["byte_size"] == view.size());
  CHECK(patch["summarised_paths"] == Json::array({"package-lock.json"}));

  // HTML: the mark after the summarised file's name in the file list and in both layouts, and
  // after no other.
  RunResult html = repo.Review({"show", "--lineage", lineage, "--html"}, {}, false);
  REQUIRE(html.exit_code == 0);
  const std::string mark =
      " <span class=\"summarised\">summarised: generated, no line-level claims</span>";
  size_t marks = 0;
  for (size_t at = html.out.find(mark); at != std::string::npos; at = html.out.find(mark, at + 1)) {
    ++marks;
  }
  CHECK(marks == 3);
  CHECK(html.out.find("package-lock.json</a>" + mark) != std::string::npos);
  CHECK(html.out.find("src/app.js</a> (") != std::string::npos);  // unmarked
  const std::string block = "package-lock.json <small>(";
  for (size_t at = html.out.find(block); at != std::string::npos;
       at = html.out.find(block, at + 1)) {
    CHECK(html.out.compare(html.out.find("</small>", at) + 8, mark.size(), mark) == 0);
  }
}

TEST_CASE("show: verdict bodies become HTML without raw HTML - links or images") {
  auto html = exporter::SafeMarkdownHtml(
      "# T\n\n*em* <b>bold</b> [x](https://e.com/x) ![i](https://e.com/i.png) "
      "<https://e.com/auto>\n\n<div onclick=\"x()\">block</div>\n");
  REQUIRE(html.ok());
  CHECK(*html ==
        "<h1>T</h1>\n<p><em>em</em> &lt;b&gt;bold&lt;/b&gt; x &lt;https://e.com/x&gt; "
        "[image: i] &lt;https://e.com/i.png&gt; https://e.com/auto &lt;https://e.com/auto&gt;</p>\n"
        "<pre><code>&lt;div onclick=&quot;x()&quot;&gt;block&lt;/div&gt;\n</code></pre>\n");
}

}  // namespace
}  // namespace gentle::testing
