// The reviewer's budget of a round (docs/lifecycle.md, "The reviewer's budget"; "Start and revise
// refuse what could never be exported"): `start --max-bytes N` or `--runtime NAME` (the documented
// table), frozen in the round's history commit as `max-bytes` (none for the default 4 MiB, so the
// record and the history stay as they were), kept by revise unless it is given one; start and
// revise refuse, writing nothing, only an entry that is not generated and is above the budget,
// naming it; a multi-megabyte lockfile bump beside code is accepted whatever the size of its full
// diff. Repositories are written with the git CLI; sizes come from the pinned git CLI.
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/git_oracle.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/lockfiles.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;
using Details = std::map<std::string, std::string>;

// The history file of the lineage's tip, or nullopt when the tip has none.
std::optional<std::string> TipFile(const LifecycleRepo& repo, const std::string& lineage,
                                   const std::string& name) {
  RunResult shown = repo.Git({"cat-file", "blob", ReviewRef(lineage) + ":" + name});
  if (shown.exit_code != 0) return std::nullopt;
  return shown.out;
}

// `args` must be refused with `code` (its exit code `exit_code`), exactly `message` and
// `details`, and leave every byte of the common dir (objects included) as it was.
void ExpectRefusal(const LifecycleRepo& repo, const std::vector<std::string>& args,
                   const std::string& code, int exit_code, const std::string& message,
                   const Details& details = {}) {
  const auto before = HashTree(repo.common_dir());
  RunResult r = repo.Review(args);
  INFO(Json(args).dump() << " -> " << r.exit_code << "\n" << r.out << r.err);
  CHECK(r.exit_code == exit_code);
  const Json error = r.Json()["error"];
  CHECK(error["code"] == code);
  CHECK(error["message"] == message);
  CHECK(error["details"].get<Details>() == details);
  CHECK(HashTree(repo.common_dir()) == before);
}

void RequestChanges(const LifecycleRepo& repo, const std::string& lineage) {
  repo.ReviewOk({"verdict", "--lineage", lineage, "--verdict", "REQUEST_CHANGES", "--actor", "ana",
                 "--role", "reviewer", "--body", "Again.\n"});
}

// Hand-written C: `lines` distinct statements (about 40 bytes each).
std::string HandWritten(size_t lines) {
  std::string out = "int total(void) {\n  int t = 0;\n";
  for (size_t i = 0; i < lines; ++i) out += "  t += compute_step(" + std::to_string(i) + ");\n";
  return out + "  return t;\n}\n";
}

// The pinned git diff of `path` alone between two revisions' trees.
std::string GitSection(const LifecycleRepo& repo, const std::string& base, const std::string& head,
                       const std::string& path) {
  RunResult r =
      repo.Git({"-c", "core.quotepath=off", "diff", "--no-color", "--no-ext-diff", "--no-renames",
                "--no-textconv", "--full-index", "--binary", base, head, "--", path});
  REQUIRE(r.exit_code == 0);
  return r.out;
}

std::string TreeOf(const LifecycleRepo& repo, const std::string& rev) {
  return Trim(repo.GitOk({"rev-parse", rev + "^{tree}"}));
}

const std::vector<std::string> kRange = {"--kind", "commit-range", "--base",
                                         "main",   "--head",       "pr"};

std::vector<std::string> With(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

}  // namespace

TEST_CASE("review budget: the runtime table and --max-bytes are frozen in the round's history") {
  LifecycleRepo repo;
  repo.Write("a.txt", "two\n");
  // The default: no history file, and the record every budget gives is the same bytes.
  const std::string lineage = repo.ReviewOk({"start"})["lineage"];
  const std::string record = ReadFile(repo.record_path(lineage));
  CHECK_FALSE(TipFile(repo, lineage, "max-bytes"));
  const std::vector<std::pair<std::vector<std::string>, std::optional<std::string>>> table = {
      {{"--runtime", "claude"}, "524288\n"},    {{"--runtime", "claude-code"}, "524288\n"},
      {{"--runtime", "pi"}, "524288\n"},        {{"--runtime", "codex"}, "1048576\n"},
      {{"--runtime", "opencode"}, "1048576\n"}, {{"--max-bytes", "4096"}, "4096\n"},
      {{"--max-bytes", "700000"}, "700000\n"},  {{"--max-bytes", "4194304"}, std::nullopt},
  };
  for (const auto& [flags, file] : table) {
    INFO(Json(flags).dump());
    repo.ReviewOk({"store", "reset", "--yes"});
    const Json started = repo.ReviewOk(With({"start"}, flags));
    CHECK(started["lineage"] == lineage);
    CHECK(started["created"] == true);
    CHECK(TipFile(repo, lineage, "max-bytes") == file);
    CHECK(ReadFile(repo.record_path(lineage)) == record);
  }
}

TEST_CASE("review budget: bad budget flags are usage before anything is read") {
  LifecycleRepo repo;
  repo.Write("a.txt", "two\n");
  const std::string range = "--max-bytes must be from 4096 to 4194304 bytes, got ";
  const std::string form =
      "--max-bytes must be a decimal number of bytes from 4096 to 4194304, got ";
  const std::string runtimes = "--runtime must be one of claude, claude-code, pi, codex, opencode";
  for (const char* verb : {"start", "status"}) {
    INFO(verb);
    ExpectRefusal(repo, {verb, "--max-bytes", "8192", "--runtime", "pi"}, "usage", 2,
                  "--max-bytes and --runtime are exclusive");
    ExpectRefusal(repo, {verb, "--max-bytes", "4095"}, "usage", 2, range + "4095");
    ExpectRefusal(repo, {verb, "--max-bytes", "4194305"}, "usage", 2, range + "4194305");
    for (const char* bad : {"0", "08192", "8k", "-1", "+8192", ""}) {
      ExpectRefusal(repo, {verb, "--max-bytes", bad}, "usage", 2, form + "\"" + bad + "\"");
    }
    for (const char* bad : {"Claude", "gpt", "claude ", ""}) {
      ExpectRefusal(repo, {verb, "--runtime", bad}, "usage", 2, runtimes + ", got \"" + bad + "\"");
    }
  }
  const std::string lineage = repo.ReviewOk({"start"})["lineage"];
  RequestChanges(repo, lineage);
  repo.Write("a.txt", "three\n");
  ExpectRefusal(repo, {"revise", "--lineage", lineage, "--runtime", "codex", "--max-bytes", "8192"},
                "usage", 2, "--max-bytes and --runtime are exclusive");
}

TEST_CASE("review budget: start again names its lineage's budget or none - else conflict") {
  LifecycleRepo repo;
  repo.Write("a.txt", "two\n");
  const Json first = repo.ReviewOk({"start", "--runtime", "codex"});
  const std::string lineage = first["lineage"];
  for (const std::vector<std::string>& again : {std::vector<std::string>{"start"},
                                                {"start", "--runtime", "opencode"},
                                                {"start", "--max-bytes", "1048576"}}) {
    const Json answer = repo.ReviewOk(again);
    CHECK(answer["lineage"] == lineage);
    CHECK(answer["created"] == false);
    CHECK(answer["revision"] == first["revision"]);
  }
  const Details held = {{"max_bytes", "1048576"}};
  const std::string message = "lineage " + lineage +
                              " already holds this candidate in round 1 with a budget of 1048576 "
                              "bytes";
  ExpectRefusal(repo, {"start", "--runtime", "claude"}, "conflict", 11, message, held);
  ExpectRefusal(repo, {"start", "--max-bytes", "4194304"}, "conflict", 11, message, held);
}

TEST_CASE("review budget: revise keeps the round's budget unless it is given one") {
  LifecycleRepo repo;
  repo.Write("a.txt", "two\n");
  const std::string lineage = repo.ReviewOk({"start", "--runtime", "codex"})["lineage"];
  const std::string start_commit = Trim(repo.GitOk({"rev-parse", ReviewRef(lineage)}));
  const std::vector<std::pair<std::vector<std::string>, std::optional<std::string>>> rounds = {
      {{}, "1048576\n"},
      {{"--max-bytes", "8192"}, "8192\n"},
      {{}, "8192\n"},
      {{"--runtime", "pi"}, "524288\n"},
      {{"--max-bytes", "4194304"}, std::nullopt},
      {{}, std::nullopt},
  };
  int round = 1;
  for (const auto& [flags, file] : rounds) {
    INFO("round " << round + 1 << " " << Json(flags).dump());
    RequestChanges(repo, lineage);
    // The verdict commit carries no budget of its own; the round's stays in its opening commit.
    CHECK_FALSE(TipFile(repo, lineage, "max-bytes"));
    repo.Write("a.txt", "round " + std::to_string(++round) + "\n");
    const Json revised = repo.ReviewOk(With({"revise", "--lineage", lineage}, flags));
    CHECK(revised["round"] == round);
    CHECK(TipFile(repo, lineage, "max-bytes") == file);
  }
  CHECK(repo.GitOk({"show", start_commit + ":max-bytes"}) == "1048576\n");
}

TEST_CASE(
    "review budget: a hand-written entry above the budget is refused by name - nothing written") {
  LifecycleRepo repo;
  repo.GitOk({"checkout", "-q", "-b", "pr"});
  repo.Write("src/big.c", HandWritten(2000));  // about 50 KB, and its diff too
  repo.Write("src/small.c", "int small(void) { return 1; }\n");
  repo.GitOk({"add", "src"});
  repo.GitOk({"commit", "-q", "-m", "big"});
  repo.GitOk({"checkout", "-q", "main"});
  const std::string section = GitSection(repo, "main", "pr", "src/big.c");
  REQUIRE(section.size() > 40000);
  REQUIRE(section.size() < 65536);
  const std::string size = std::to_string(section.size());
  const Details details = {{"path", "src/big.c"},
                           {"byte_size", size},
                           {"byte_size_bound", "exact"},
                           {"max_bytes", "32768"}};
  const std::string message = "the entry src/big.c is " + size +
                              " bytes, over the part size of 32768 bytes, and is not generated; "
                              "nothing is truncated";
  ExpectRefusal(repo, With(With({"start"}, kRange), {"--max-bytes", "32768"}), "budget_exceeded", 9,
                message, details);
  // status names no start that would meet it, under the same budget; under a larger one, start.
  const Json refused = repo.ReviewOk(With(With({"status"}, kRange), {"--max-bytes", "32768"}));
  CHECK(refused["next"] == "none");
  CHECK(refused["next_reason"] == "budget_exceeded");
  const Json fits = repo.ReviewOk(With(With({"status"}, kRange), {"--max-bytes", "65536"}));
  CHECK(fits["next"] == "start");
  const Json started = repo.ReviewOk(With(With({"start"}, kRange), {"--max-bytes", "65536"}));
  CHECK(started["created"] == true);
  // export-context's review view under the smaller budget refuses it exactly as start did.
  ExpectRefusal(repo,
                {"export-context", "--lineage", started["lineage"], "--view", "review",
                 "--max-bytes", "32768"},
                "budget_exceeded", 9, message, details);

  // revise under a kept budget that the new round's entry passes: the same refusal, by name.
  LifecycleRepo sent_back;
  sent_back.Write("src/big.c", "int small(void) { return 1; }\n");
  const std::string lineage =
      sent_back.ReviewOk({"start", "--untracked", "src/big.c", "--max-bytes", "32768"})["lineage"];
  RequestChanges(sent_back, lineage);
  sent_back.Write("src/big.c", HandWritten(2000));
  const std::string blob = Trim(sent_back.GitOk({"hash-object", "src/big.c"}));
  RunResult revised = sent_back.Review({"revise", "--lineage", lineage});
  REQUIRE(revised.exit_code == 9);
  const Details got = revised.Json()["error"]["details"].get<Details>();
  CHECK(got.at("path") == "src/big.c");
  CHECK(got.at("max_bytes") == "32768");
  CHECK(got.at("byte_size_bound") == "exact");
  CHECK(sent_back.Git({"cat-file", "-e", blob}).exit_code != 0);
  const Json status = sent_back.ReviewOk({"status", "--lineage", lineage});
  CHECK(status["next"] == "none");
  CHECK(status["next_reason"] == "budget_exceeded");
}

TEST_CASE(
    "review budget: a multi-megabyte lockfile bump beside code starts - the attribute decides") {
  LifecycleRepo repo;
  repo.Write("package-lock.json", NpmLockfile(15000, 0, 1));
  repo.Write("data/fixtures.json", NpmLockfile(3000, 0, 1));
  repo.Write("src/app.js", "export const version = 1;\n");
  repo.GitOk({"add", "."});
  repo.GitOk({"commit", "-q", "-m", "deps"});
  repo.GitOk({"checkout", "-q", "-b", "pr"});
  repo.Write("package-lock.json", NpmLockfile(15000, 1, 1));
  repo.Write("src/app.js", "export const version = 2;\n");
  repo.GitOk({"commit", "-q", "-am", "bump"});
  const std::string pr = TreeOf(repo, "pr");
  repo.GitOk({"checkout", "-q", "main"});
  const Result<std::string> full = OracleDiff(repo.common_dir(), TreeOf(repo, "main"), pr);
  REQUIRE(full.ok());
  REQUIRE(full->size() > (size_t{5} << 20));  // the whole diff: far above 4 MiB
  const std::string lock = GitSection(repo, "main", "pr", "package-lock.json");
  REQUIRE(lock.size() > (size_t{4} << 20));  // the lockfile's section alone, too

  // Generated by the default list: accepted under the default budget and under codex's.
  const Json started = repo.ReviewOk(With({"start"}, kRange));
  CHECK(started["created"] == true);
  CHECK(TipFile(repo, started["lineage"], "generated-paths") ==
        std::string("package-lock.json\0", 18));
  repo.ReviewOk({"store", "reset", "--yes"});
  CHECK(repo.ReviewOk(With(With({"start"}, kRange), {"--runtime", "codex"}))["created"] == true);

  // The attribute unset on the branch: the lockfile is hand-written to the reviewer now, and no
  // part holds it: refused by name, with the size git prints for it.
  repo.ReviewOk({"store", "reset", "--yes"});
  repo.GitOk({"checkout", "-q", "pr"});
  repo.Write(".gitattributes", "package-lock.json -linguist-generated\n");
  repo.GitOk({"add", ".gitattributes"});
  repo.GitOk({"commit", "-q", "-m", "unset"});
  repo.GitOk({"checkout", "-q", "main"});
  const std::string unset = GitSection(repo, "main", "pr", "package-lock.json");
  CHECK(unset == lock);
  const std::string size = std::to_string(lock.size());
  ExpectRefusal(repo, With({"start"}, kRange), "budget_exceeded", 9,
                "the entry package-lock.json is " + size +
                    " bytes, over the part size of 4194304 bytes, and is not generated; nothing "
                    "is truncated",
                {{"path", "package-lock.json"},
                 {"byte_size", size},
                 {"byte_size_bound", "exact"},
                 {"max_bytes", "4194304"}});

  // The attribute set on a hand-written name: a large rewrite of it is accepted under a budget
  // its section passes.
  repo.GitOk({"checkout", "-q", "pr"});
  repo.Write(".gitattributes", "data/*.json linguist-generated\n");
  repo.Write("package-lock.json", NpmLockfile(15000, 0, 1));
  repo.Write("data/fixtures.json", NpmLockfile(3000, 1, 1));
  repo.GitOk({"commit", "-q", "-am", "fixtures"});
  repo.GitOk({"checkout", "-q", "main"});
  REQUIRE(GitSection(repo, "main", "pr", "data/fixtures.json").size() > (size_t{1} << 20));
  const Json fixtures = repo.ReviewOk(With(With({"start"}, kRange), {"--runtime", "claude"}));
  CHECK(fixtures["created"] == true);
  CHECK(TipFile(repo, fixtures["lineage"], "generated-paths") ==
        std::string("data/fixtures.json\0", 19));
}

TEST_CASE(
    "review budget: a generated change whose whole diff passes what verify binds is refused") {
  // The review view summarises the lockfile, but verify and attest bind the whole diff exactly, up
  // to 64 MiB (export/derivation.h): a lineage past it could never verify, so start refuses it,
  // writing nothing, and status names no start for it.
  LifecycleRepo repo;
  repo.Write("src/app.js", "export const version = 1;\n");
  repo.GitOk({"add", "."});
  repo.GitOk({"commit", "-q", "-m", "app"});
  repo.GitOk({"checkout", "-q", "-b", "pr"});
  repo.Write("package-lock.json", NpmLockfile(250000, 0, 1));
  repo.Write("src/app.js", "export const version = 2;\n");
  repo.GitOk({"add", "."});
  repo.GitOk({"commit", "-q", "-m", "lockfile"});
  repo.GitOk({"checkout", "-q", "main"});
  REQUIRE(std::stoull(Trim(repo.GitOk({"cat-file", "-s", "pr:package-lock.json"}))) >
          (uint64_t{66} << 20));

  const auto before = HashTree(repo.common_dir());
  RunResult r = repo.Review(With({"start"}, kRange));
  INFO(r.out << r.err);
  CHECK(r.exit_code == 9);
  const Json error = r.Json()["error"];
  CHECK(error["code"] == "budget_exceeded");
  const Details details = error["details"].get<Details>();
  CHECK(details.at("max_bytes") == "67108864");
  CHECK(details.at("byte_size_bound") == "at_least");
  CHECK(std::stoull(details.at("byte_size")) > (uint64_t{64} << 20));
  CHECK(error["message"] == "the frozen diff is at least " + details.at("byte_size") +
                                " bytes, over the budget of 67108864 bytes; nothing is truncated");
  CHECK(HashTree(repo.common_dir()) == before);
  const Json status = repo.ReviewOk(With({"status"}, kRange));
  CHECK(status["next"] == "none");
  CHECK(status["next_reason"] == "budget_exceeded");
  CHECK(HashTree(repo.common_dir()) == before);
}

TEST_CASE("review budget: next is export with the parts export-context prints under the budget") {
  LifecycleRepo repo;
  repo.Write("package-lock.json", NpmLockfile(4000, 0, 1));
  repo.Write("Cargo.lock", CargoLockfile(3000, 0));
  repo.GitOk({"add", "."});
  repo.GitOk({"commit", "-q", "-m", "deps"});
  repo.GitOk({"checkout", "-q", "-b", "pr"});
  repo.Write("package-lock.json", NpmLockfile(4000, 1, 1));
  repo.Write("Cargo.lock", CargoLockfile(3000, 1));
  for (const char* name : {"src/a.c", "src/b.c", "src/c.c", "src/d.c"}) {
    repo.Write(name, HandWritten(8000));  // about 220 KB each
  }
  repo.GitOk({"add", "."});
  repo.GitOk({"commit", "-q", "-m", "bump and code"});
  repo.GitOk({"checkout", "-q", "main"});
  const std::string lineage =
      repo.ReviewOk(With(With({"start"}, kRange), {"--runtime", "claude"}))["lineage"];

  // The parts status names are the parts export-context prints for the round's budget, and each
  // of them exports.
  const auto expect_parts = [&](const Json& status) {
    INFO(status.dump());
    CHECK(status["next"] == "export");
    CHECK(status["next_lineage"] == lineage);
    CHECK(status["max_bytes"] == 524288);
    REQUIRE(status["parts"].is_number_unsigned());
    const uint64_t parts = status["parts"];
    CHECK(parts > 1);
    CHECK(status["lineages"][0]["parts"] == parts);
    CHECK(status["lineages"][0]["max_bytes"] == 524288);
    const Json envelope = repo.ReviewOk(
        {"export-context", "--lineage", lineage, "--view", "review", "--max-bytes", "524288"});
    CHECK(envelope["parts"] == parts);
    for (uint64_t k = 1; k <= parts; ++k) {
      const Json part = repo.ReviewOk({"export-context", "--lineage", lineage, "--view", "review",
                                       "--max-bytes", "524288", "--part", std::to_string(k)});
      CHECK(part["part"] == k);
    }
    return parts;
  };
  const uint64_t round1 =
      expect_parts(repo.ReviewOk(With(With({"status"}, kRange), {"--role", "reviewer"})));
  CHECK(expect_parts(repo.ReviewOk({"status", "--lineage", lineage, "--role", "reviewer"})) ==
        round1);
  const Json reviewer = repo.ReviewOk({"status", "--role", "reviewer"});
  CHECK(expect_parts(reviewer) == round1);
  // The author is told nothing to export: no parts.
  const Json author = repo.ReviewOk({"status", "--role", "author"});
  CHECK(author["next"] == "none");
  CHECK(author["parts"].is_null());
  CHECK(author["max_bytes"].is_null());
  CHECK(author["lineages"][0]["parts"].is_null());
  RunResult human = repo.Review({"status", "--lineage", lineage, "--role", "reviewer"}, {}, false);
  REQUIRE(human.exit_code == 0);
  CHECK(human.out.substr(human.out.rfind("next: ")) ==
        "next: export (review_due)  lineage " + lineage + "  in " + std::to_string(round1) +
            " parts of at most 524288 bytes\n");

  // Round 2 keeps the budget; its parts are again export-context's.
  RequestChanges(repo, lineage);
  repo.GitOk({"checkout", "-q", "pr"});
  repo.Write("src/e.c", HandWritten(8000));
  repo.GitOk({"add", "."});
  repo.GitOk({"commit", "-q", "-m", "more code"});
  repo.GitOk({"checkout", "-q", "main"});
  CHECK(repo.ReviewOk({"revise", "--lineage", lineage})["round"] == 2);
  CHECK(expect_parts(repo.ReviewOk({"status", "--lineage", lineage, "--role", "reviewer"})) >
        round1);
}

}  // namespace gentle::testing
