// verify --allow-trivial-rebase --base-ref REF (docs/ci.md, "Rebased changes";
// export/trivial_rebase.h). The histories are built here: the bundled demo repository
// (fixtures/make-demo-repo.sh) plus scripted commits, an approved feature commit, and that commit
// cherry-picked onto other bases. The real git CLI is the oracle: every pair verify accepts has
// equal `git patch-id --stable` of the pinned diffs; pairs whose changed lines or context differ
// are refused. PatchDifference, the comparison itself, is also checked on crafted patches.
#include "export/trivial_rebase.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_oracle.h"
#include "tests/support/git_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

std::string Rows(int first_extra_rows, const std::string& row30) {
  std::string out;
  for (int i = 1; i <= first_extra_rows; ++i) out += "upstream line " + std::to_string(i) + "\n";
  for (int i = 1; i <= 60; ++i) out += i == 30 ? row30 + "\n" : "row " + std::to_string(i) + "\n";
  return out;
}

std::string Bytes(char fill, const std::string& tail) {
  std::string out(400, fill);
  out += std::string("\0\1\2", 3) + tail;
  return out;
}

// The demo repository with scripted commits on main, and a feature branch whose one commit is
// approved as a commit-range lineage: it edits row 30 of src/table.txt and a line of src/greet.c,
// renames docs/old-name.txt (a delete and an add under --no-renames), edits a binary file and
// makes tools/run.sh executable.
class RebaseRepo {
 public:
  RebaseRepo() : root_(dir_.path() + "/demo") {
    RunResult made = Run({"bash", std::string(GENTLE_FIXTURES_DIR) + "/make-demo-repo.sh", root_});
    INFO(made.err);
    REQUIRE(made.exit_code == 0);
    Write("src/table.txt", Rows(0, "row 30"));
    Write("docs/old-name.txt", "a file that is renamed\n");
    Write("assets/data.bin", Bytes('x', ""));
    Write("tools/run.sh", "echo run\n");
    CommitAll("main: table, data, tool");
    Git({"checkout", "-q", "-b", "feature"});
    Write("src/table.txt", Rows(0, "row 30 changed"));
    ReplaceIn("src/greet.c", "return \"Hi\";", "return \"Hello\";");
    Git({"mv", "docs/old-name.txt", "docs/new-name.txt"});
    Write("assets/data.bin", Bytes('x', std::string("\5\5\0", 3)));
    REQUIRE(chmod((root_ + "/tools/run.sh").c_str(), 0755) == 0);
    CommitAll("feature: the reviewed change");
    feature_ = Rev("feature");
    nlohmann::json started =
        ReviewOk({"start", "--kind", "commit-range", "--base", "main", "--head", "feature"});
    lineage_ = started["lineage"];
    ReviewOk({"verdict", "--lineage", lineage_, "--verdict", "APPROVE", "--actor", "ana", "--role",
              "reviewer", "--body", "Read it."});
  }

  const std::string& root() const { return root_; }
  const std::string& lineage() const { return lineage_; }
  const std::string& feature() const { return feature_; }

  std::string Git(const std::vector<std::string>& args) const {
    return Trim(gentle::testing::Git(root_, args));
  }
  std::string Rev(const std::string& rev) const { return Git({"rev-parse", rev}); }
  void Write(const std::string& path, const std::string& bytes) const {
    WriteFile(root_ + "/" + path, bytes);
  }
  void ReplaceIn(const std::string& path, const std::string& from, const std::string& to) const {
    std::string text = ReadFile(root_ + "/" + path);
    const size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    Write(path, text.replace(at, from.size(), to));
  }
  void CommitAll(const std::string& message) const {
    Git({"add", "-A"});
    Git({"commit", "-q", "-m", message});
  }

  // A new branch `name` off main with `edit` committed on it (the new base); returns its commit.
  template <typename Edit>
  std::string Upstream(const std::string& name, Edit edit) const {
    Git({"checkout", "-q", "-b", name, "main"});
    edit();
    CommitAll("upstream " + name);
    return Rev("HEAD");
  }
  // The feature commit cherry-picked onto `base` (a new branch `name`); returns the new commit.
  std::string CherryPick(const std::string& name, const std::string& base,
                         const std::vector<std::string>& options = {}) const {
    Git({"checkout", "-q", "-b", name, base});
    std::vector<std::string> args = {"cherry-pick"};
    args.insert(args.end(), options.begin(), options.end());
    args.push_back(feature_);
    Git(args);
    return Rev("HEAD");
  }

  RunResult Review(const std::vector<std::string>& args) const {
    std::vector<std::string> full = {"review"};
    full.insert(full.end(), args.begin(), args.end());
    full.insert(full.end(), {"--cwd", root_, "--json"});
    return GentleAi(full, root_);
  }
  nlohmann::json ReviewOk(const std::vector<std::string>& args) const {
    RunResult run = Review(args);
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    return run.Json();
  }
  RunResult Verify(const std::string& against, const std::string& base_ref) const {
    return Review({"verify", "--lineage", lineage_, "--against", against, "--base-ref", base_ref,
                   "--allow-trivial-rebase"});
  }

  // git patch-id --stable of the pinned oracle diff between two revisions' trees.
  std::string PatchId(const std::string& from, const std::string& to) const {
    auto diff = OracleDiff(root_ + "/.git", Rev(from + "^{tree}"), Rev(to + "^{tree}"));
    REQUIRE(diff.ok());
    RunResult id = GitRun(root_, {"patch-id", "--stable"}, {}, *diff);
    REQUIRE(id.exit_code == 0);
    REQUIRE(id.out.size() > 40);
    return id.out.substr(0, 40);
  }

 private:
  TempDir dir_;
  std::string root_;
  std::string feature_;
  std::string lineage_;
};

// verify accepted `head` as a trivial rebase whose change starts at `base`; the oracle agrees.
void ExpectAccepted(const RebaseRepo& repo, const std::string& head, const std::string& base_ref,
                    const std::string& base, bool first_parent) {
  RunResult run = repo.Verify(head, base_ref);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const nlohmann::json out = run.Json();
  CHECK(out["match"] == "trivial_rebase");
  CHECK(out["candidate_tree"] == repo.Rev(repo.feature() + "^{tree}"));
  CHECK(out["against_tree"] == repo.Rev(head + "^{tree}"));
  CHECK(out["candidate_tree"] != out["against_tree"]);
  CHECK(out["rebase"]["base_ref"] == base_ref);
  CHECK(out["rebase"]["base_commit"] == base);
  CHECK(out["rebase"]["base_tree"] == repo.Rev(base + "^{tree}"));
  CHECK(out["rebase"]["first_parent"] == first_parent);
  CHECK(repo.PatchId(base, head) == repo.PatchId("main", repo.feature()));
}

// verify refused `head` with not_reviewed for `reason`; for patch_differs naming `difference` (a
// prefix of details.difference).
void ExpectRefused(const RebaseRepo& repo, const std::string& head, const std::string& base_ref,
                   const std::string& difference, const std::string& reason = "patch_differs") {
  RunResult run = repo.Verify(head, base_ref);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 10);
  const nlohmann::json error = run.Json()["error"];
  CHECK(error["code"] == "not_reviewed");
  CHECK(error["details"]["reason"] == reason);
  CHECK(error["details"]["base_ref"] == base_ref);
  CHECK(error["details"]["against_tree"] == repo.Rev(head + "^{tree}"));
  CHECK(error["details"]["candidate_tree"] == repo.Rev(repo.feature() + "^{tree}"));
  if (reason == "patch_differs") {
    CHECK(std::string(error["details"]["difference"]).rfind(difference, 0) == 0);
  } else {
    CHECK(!error["details"].contains("difference"));
  }
}

TEST_CASE("trivial rebase: a rebase that only shifts line numbers is accepted") {
  RebaseRepo repo;
  const std::string base = repo.Upstream("shifted", [&] {
    repo.Write("src/table.txt", Rows(5, "row 30"));
    repo.ReplaceIn("src/greet.c", "#include <stdio.h>\n", "// upstream\n\n#include <stdio.h>\n");
    repo.Write("README.md", "# Demo, edited upstream\n");
    repo.Write("tools/run.sh", "echo run, edited upstream\n");  // under a mode-only change
  });
  const std::string head = repo.CherryPick("rebased", base);
  ExpectAccepted(repo, head, "shifted", base, false);
  // The same with --base-ref on a later commit of the base branch: merge-base(REF, HEAD) is `base`.
  repo.Git({"checkout", "-q", "-b", "later", "shifted"});
  repo.Write("unrelated.txt", "later\n");
  repo.CommitAll("later on the base branch");
  ExpectAccepted(repo, head, "later", base, false);
}

TEST_CASE("trivial rebase: the exact tree says match exact and without the flag nothing changes") {
  RebaseRepo repo;
  nlohmann::json exact = repo.Verify("feature", "main").Json();
  CHECK(exact["match"] == "exact");
  CHECK(!exact.contains("rebase"));
  CHECK(exact["against_tree"] == exact["candidate_tree"]);
  // Without --allow-trivial-rebase the output has no `match` member, byte for byte as before.
  RunResult plain = repo.Review({"verify", "--lineage", repo.lineage(), "--against", "feature"});
  REQUIRE(plain.exit_code == 0);
  CHECK(!plain.Json().contains("match"));
  nlohmann::json expected = exact;
  expected.erase("match");
  CHECK(plain.Json() == expected);
  // And a rebased tree without the flag is not_reviewed, as before.
  const std::string base =
      repo.Upstream("shifted", [&] { repo.Write("src/table.txt", Rows(3, "row 30")); });
  const std::string head = repo.CherryPick("rebased", base);
  RunResult refused = repo.Review({"verify", "--lineage", repo.lineage(), "--against", head});
  CHECK(refused.exit_code == 10);
  CHECK(refused.Json()["error"]["code"] == "not_reviewed");
  CHECK(!refused.Json()["error"]["details"].contains("difference"));
}

TEST_CASE("trivial rebase: a changed context line is refused") {
  RebaseRepo repo;
  const std::string base = repo.Upstream(
      "context", [&] { repo.ReplaceIn("src/table.txt", "row 28\n", "row 28 edited upstream\n"); });
  const std::string head = repo.CherryPick("rebased", base);
  ExpectRefused(repo, head, "context", "a/src/table.txt b/src/table.txt: hunk 1 differs");
  CHECK(repo.PatchId(base, head) != repo.PatchId("main", repo.feature()));
}

TEST_CASE("trivial rebase: a changed hunk is refused") {
  RebaseRepo repo;
  const std::string base =
      repo.Upstream("shifted", [&] { repo.Write("src/table.txt", Rows(5, "row 30")); });
  repo.CherryPick("rebased", base);
  repo.Write("src/table.txt", Rows(5, "row 30 changed otherwise"));
  repo.Git({"commit", "-q", "--amend", "-a", "--no-edit"});
  const std::string head = repo.Rev("HEAD");
  ExpectRefused(repo, head, "shifted", "a/src/table.txt b/src/table.txt: hunk 1 differs");
  CHECK(repo.PatchId(base, head) != repo.PatchId("main", repo.feature()));
  // A change with one more file is refused too.
  repo.Write("extra.txt", "not reviewed\n");
  repo.CommitAll("one more file");
  ExpectRefused(repo, "HEAD", "shifted", "");
}

TEST_CASE("trivial rebase: renames binary files and modes as the pinned flags show them") {
  RebaseRepo repo;
  SECTION("the renamed file's content changed upstream: refused") {
    // git's cherry-pick follows the rename; under --no-renames the added file's lines differ.
    const std::string base = repo.Upstream("renamed", [&] {
      repo.Write("docs/old-name.txt", "a file that is renamed, edited upstream\n");
    });
    const std::string head = repo.CherryPick("rebased", base);
    CHECK(ReadFile(repo.root() + "/docs/new-name.txt") ==
          "a file that is renamed, edited upstream\n");
    ExpectRefused(repo, head, "renamed", "a/docs/new-name.txt b/docs/new-name.txt: hunk 1 differs");
    CHECK(repo.PatchId(base, head) != repo.PatchId("main", repo.feature()));
  }
  SECTION("the binary file's old content changed upstream: refused, blob ids included") {
    const std::string base = repo.Upstream("binary", [&] {
      repo.Write("assets/data.bin", Bytes('y', ""));
      repo.Write("README.md", "# Demo, edited upstream\n");
    });
    // The feature's version of the binary wins the cherry-pick, so the new blob is the approved.
    const std::string head = repo.CherryPick("rebased", base, {"-X", "theirs"});
    CHECK(repo.Rev(head + ":assets/data.bin") == repo.Rev(repo.feature() + ":assets/data.bin"));
    ExpectRefused(repo, head, "binary",
                  "a/assets/data.bin b/assets/data.bin: its binary patch differs");
  }
  SECTION("the edited file became executable upstream: refused on the index line's mode") {
    const std::string base = repo.Upstream(
        "mode", [&] { REQUIRE(chmod((repo.root() + "/src/greet.c").c_str(), 0755) == 0); });
    const std::string head = repo.CherryPick("rebased", base);
    ExpectRefused(repo, head, "mode", "a/src/greet.c b/src/greet.c: its header differs");
    // Stricter than git patch-id, which skips index lines: the ids are equal here.
    CHECK(repo.PatchId(base, head) == repo.PatchId("main", repo.feature()));
  }
}

TEST_CASE("trivial rebase: a merge commit at HEAD is judged by its first-parent change") {
  RebaseRepo repo;
  const std::string base =
      repo.Upstream("shifted", [&] { repo.Write("src/table.txt", Rows(5, "row 30")); });
  SECTION("the base branch merging the feature: its first-parent change is the feature") {
    repo.Git({"merge", "-q", "--no-ff", "-m", "merge feature", "feature"});
    const std::string merge = repo.Rev("HEAD");
    // Its first parent is the base's tip (`shifted` before the merge), which is the merge base.
    ExpectAccepted(repo, merge, base, base, true);
    // Into main, whose history lacks the upstream commit, the first parent is off the base.
    ExpectRefused(repo, merge, "main", "", "first_parent_off_base");
  }
  SECTION("the feature merging the base branch: its first parent is off the base") {
    repo.Git({"checkout", "-q", "feature"});
    repo.Git({"merge", "-q", "--no-ff", "-m", "merge upstream", "shifted"});
    ExpectRefused(repo, "HEAD", "shifted", "", "first_parent_off_base");
  }
}

TEST_CASE("trivial rebase: envelope mode and the refusals of its flags") {
  RebaseRepo repo;
  const std::string base =
      repo.Upstream("shifted", [&] { repo.Write("src/table.txt", Rows(5, "row 30")); });
  const std::string head = repo.CherryPick("rebased", base);
  SECTION("an envelope verifies a trivial rebase of its patch") {
    RunResult exported = repo.Review({"export-context", "--lineage", repo.lineage()});
    REQUIRE(exported.exit_code == 0);
    const std::string file = repo.root() + "/../envelope.json";
    WriteFile(file, exported.out);
    RunResult run = repo.Review({"verify", "--envelope", file, "--against", head, "--base-ref",
                                 "shifted", "--allow-trivial-rebase"});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(run.Json()["match"] == "trivial_rebase");
    CHECK(run.Json()["rebase"]["base_commit"] == base);
  }
  SECTION("--allow-trivial-rebase without --base-ref or --against: usage") {
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"verify", "--lineage", repo.lineage(), "--against", head, "--allow-trivial-rebase"},
             {"verify", "--lineage", repo.lineage(), "--base-ref", "main",
              "--allow-trivial-rebase"}}) {
      RunResult run = repo.Review(args);
      CHECK(run.exit_code == 2);
      CHECK(run.Json()["error"]["code"] == "usage");
    }
  }
  SECTION("a --base-ref that does not resolve: usage, also when the tree is the reviewed one") {
    for (const std::string& against : {head, std::string("feature")}) {
      RunResult run = repo.Verify(against, "no-such-branch");
      CHECK(run.exit_code == 2);
      CHECK(run.Json()["error"]["code"] == "usage");
    }
  }
  SECTION("no merge base with --base-ref: not_reviewed") {
    repo.Git({"checkout", "-q", "--orphan", "unrelated"});
    repo.Git({"rm", "-q", "-r", "-f", "."});
    repo.Write("other.txt", "another history\n");
    repo.CommitAll("an unrelated root");
    RunResult run = repo.Verify(head, "unrelated");
    CHECK(run.exit_code == 10);
    CHECK(run.Json()["error"]["code"] == "not_reviewed");
    CHECK(run.Json()["error"]["details"]["reason"] == "no_merge_base");
    CHECK(!run.Json()["error"]["details"].contains("base_commit"));
  }
}

// PatchDifference on crafted patches: what may differ and what may not.
TEST_CASE("trivial rebase: PatchDifference allows only hunk starts and text blob ids") {
  const std::string a = std::string(40, 'a'), b = std::string(40, 'b');
  const std::string c = std::string(40, 'c'), d = std::string(40, 'd');
  auto text = [](const std::string& from, const std::string& to, const std::string& mode,
                 const std::string& hunk, const std::string& line) {
    return "diff --git a/f b/f\nindex " + from + ".." + to + mode + "\n--- a/f\n+++ b/f\n" + hunk +
           "\n x\n-" + line + "\n+new\n y\n";
  };
  const std::string approved = text(a, b, " 100644", "@@ -10,3 +10,3 @@ int f()", "old");
  CHECK(exporter::PatchDifference(approved, approved).empty());
  CHECK(
      exporter::PatchDifference(approved, text(c, d, " 100644", "@@ -15,3 +17,3 @@ int f()", "old"))
          .empty());
  CHECK(exporter::PatchDifference(approved, text(a, b, " 100755", "@@ -10,3 +10,3 @@ int f()",
                                                 "old")) == "a/f b/f: its header differs");
  CHECK(exporter::PatchDifference(approved, text(a, b, " 100644", "@@ -10,4 +10,3 @@ int f()",
                                                 "old")) == "a/f b/f: hunk 1 differs");
  CHECK(exporter::PatchDifference(approved, text(a, b, " 100644", "@@ -10,3 +10,3 @@ int g()",
                                                 "old")) == "a/f b/f: hunk 1 differs");
  CHECK(exporter::PatchDifference(approved, text(a, b, " 100644", "@@ -10,3 +10,3 @@ int f()",
                                                 "other")) == "a/f b/f: hunk 1 differs");
  // A null id (an absent side) stays null; the id's length stays.
  CHECK(!exporter::PatchDifference(
             approved, text(std::string(40, '0'), b, " 100644", "@@ -10,3 +10,3 @@ int f()", "old"))
             .empty());
  CHECK(!exporter::PatchDifference(
             approved, text(std::string(64, 'c'), b, " 100644", "@@ -10,3 +10,3 @@ int f()", "old"))
             .empty());
  // Start lines that are not numbers are not a hunk header.
  CHECK(
      !exporter::PatchDifference(approved, text(a, b, " 100644", "@@ -x,3 +10,3 @@ int f()", "old"))
           .empty());
  // A binary section is compared byte for byte, its index line included.
  const std::string binary =
      "diff --git a/p b/p\nindex " + a + ".." + b +
      "\nGIT binary patch\nliteral 3\nKcmZ?d00001\n\nliteral 0\nHcmV?d00001\n\n";
  std::string moved = binary;
  moved.replace(moved.find(a), 40, c);
  CHECK(exporter::PatchDifference(binary, binary).empty());
  CHECK(exporter::PatchDifference(binary, moved) == "a/p b/p: its binary patch differs");
  // Sections are compared in order and counted.
  CHECK(exporter::PatchDifference(approved + binary, binary + approved) ==
        "a/f b/f: its header differs");
  CHECK(exporter::PatchDifference(approved, approved + binary) ==
        "file sections: 1 in the approved patch, 2 in the change");
  CHECK(exporter::PatchDifference(approved, approved.substr(0, approved.size() - 3)) ==
        "a/f b/f: hunk 1 differs in length");
  CHECK(exporter::PatchDifference(approved, approved + " z\n") ==
        "a/f b/f: hunk 1 differs in length");
}

}  // namespace
}  // namespace gentle::testing
