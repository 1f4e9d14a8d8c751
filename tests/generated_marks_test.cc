// Generated entries (docs/lifecycle.md, "Generated entries"; transaction/generated_rules.h,
// transaction/generated_marks.h): the marks made from a candidate tree's `.gitattributes` equal
// what the git CLI says of `linguist-generated` for every path (`git check-attr` in a worktree of
// that tree, with no user, system or info/attributes configuration), read as GitHub reads it, over
// the documented default list; start and revise freeze them in the round's history commit
// (`generated-paths`), which a later edit of the attributes never changes, and the record
// carries no new member.
#include "transaction/generated_marks.h"

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "store/generated_paths.h"
#include "store/git/object_reader.h"
#include "store/git/repository.h"
#include "tests/support/files.h"
#include "tests/support/git_repo.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

// The default list as docs/lifecycle.md states it, written out here.
bool DefaultListed(const std::string& path) {
  static const std::set<std::string> names = {"package-lock.json",
                                              "npm-shrinkwrap.json",
                                              "yarn.lock",
                                              "pnpm-lock.yaml",
                                              "bun.lock",
                                              "Cargo.lock",
                                              "go.sum",
                                              "poetry.lock",
                                              "Pipfile.lock",
                                              "uv.lock",
                                              "Gemfile.lock",
                                              "composer.lock",
                                              "mix.lock",
                                              "pubspec.lock",
                                              "Podfile.lock",
                                              "flake.lock"};
  const std::string name =
      path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  if (names.count(name) != 0) return true;
  for (const std::string suffix : {".min.js", ".min.css", ".map", ".pb.go", "_pb2.py"}) {
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return true;
    }
  }
  return false;
}

// What git says of linguist-generated for each path, read as GitHub's linguist reads it: set or
// any value but "false" marks, unset or "false" does not, unspecified leaves the default list.
std::set<std::string> OracleMarks(const std::string& repo, const std::vector<std::string>& paths) {
  std::string input;
  for (const std::string& p : paths) input += p + '\0';
  RunResult r = GitRun(repo, {"check-attr", "-z", "--stdin", "linguist-generated"}, {}, input);
  REQUIRE(r.exit_code == 0);
  std::vector<std::string> fields;
  size_t at = 0;
  while (at < r.out.size()) {
    const size_t end = r.out.find('\0', at);
    REQUIRE(end != std::string::npos);
    fields.push_back(r.out.substr(at, end - at));
    at = end + 1;
  }
  REQUIRE(fields.size() == 3 * paths.size());
  std::set<std::string> marked;
  for (size_t i = 0; i < fields.size(); i += 3) {
    const std::string& path = fields[i];
    const std::string& value = fields[i + 2];
    bool generated;
    if (value == "unspecified") {
      generated = DefaultListed(path);
    } else {
      generated = value != "unset" && value != "false";
    }
    if (generated) marked.insert(path);
  }
  return marked;
}

const char kRootAttributes[] =
    "# generated code\n"
    "*.gen linguist-generated\n"
    "*.lock -linguist-generated\n"
    "docs/**/*.md linguist-generated=true\n"
    "/top.txt linguist-generated\n"
    "build/ linguist-generated\n"
    "vendor/* linguist-generated\n"
    "\"quoted name.txt\" linguist-generated\n"
    "*.val linguist-generated=false\n"
    "*.other linguist-generated=yes\n"
    "*.x linguist-generated -linguist-generated\n"
    "!neg.txt linguist-generated\n"
    "*.[ch]pp linguist-generated\n"
    "?.one linguist-generated\n"
    "package-lock.json -linguist-generated\n"
    "  \t*.spaced   text   linguist-generated  \r\n"
    "bad@name linguist-generated\n"
    "*.bad linguist-generated bad@attr\n"
    "**/deep/** linguist-generated\n"
    "[!a]*.cls linguist-generated\n";

const char kSubAttributes[] =
    "*.gen -linguist-generated\n"
    "inner/*.txt linguist-generated\n"
    "*.css !linguist-generated\n"
    "package-lock.json !linguist-generated\n"
    "yarn.lock linguist-generated\n";

const std::vector<std::string>& Paths() {
  static const std::vector<std::string> paths = {".gitattributes",
                                                 "Cargo.lock",
                                                 "a.bad",
                                                 "a.cpp",
                                                 "a.gen",
                                                 "a.hpp",
                                                 "a.other",
                                                 "a.spaced",
                                                 "a.val",
                                                 "a.x",
                                                 "aa.one",
                                                 "api.pb.go",
                                                 "app.min.js",
                                                 "b.cls",
                                                 "a.cls",
                                                 "build/a",
                                                 "docs/a.md",
                                                 "docs/x/y/z.md",
                                                 "docsx/a.md",
                                                 "go.sum",
                                                 "m_pb2.py",
                                                 "neg.txt",
                                                 "package-lock.json",
                                                 "plain.c",
                                                 "quoted name.txt",
                                                 "src/deep/x/y.c",
                                                 "deep/z.c",
                                                 "sub/.gitattributes",
                                                 "sub/a.gen",
                                                 "sub/inner/deeper/x.txt",
                                                 "sub/inner/x.txt",
                                                 "sub/package-lock.json",
                                                 "sub/style.min.css",
                                                 "sub/top.txt",
                                                 "sub/yarn.lock",
                                                 "top.txt",
                                                 "vendor/a.js",
                                                 "vendor/b/c.js",
                                                 "x.map",
                                                 "x.one",
                                                 "yarn.lock",
                                                 "link/a.txt",
                                                 "link/.gitattributes"};
  return paths;
}

}  // namespace

TEST_CASE(
    "generated marks: every path as git check-attr reads linguist-generated over the default "
    "list") {
  TempDir dir;
  const std::string repo = InitRepo(dir.path());
  WriteFile(repo + "/.gitattributes", kRootAttributes);
  WriteFile(repo + "/sub/.gitattributes", kSubAttributes);
  std::vector<std::string> paths = Paths();
  std::sort(paths.begin(), paths.end());
  for (const std::string& p : paths) {
    if (p.find(".gitattributes") == std::string::npos) WriteFile(repo + "/" + p, p + "\n");
  }
  // A symlinked .gitattributes: git does not follow it in a worktree, and a tree's symlink entry
  // is not an attributes file.
  WriteFile(repo + "/attrs-elsewhere", "*.txt linguist-generated\n");
  REQUIRE(Run({"ln", "-s", "../attrs-elsewhere", repo + "/link/.gitattributes"}).exit_code == 0);
  Git(repo, {"add", "-A"});
  Git(repo, {"commit", "-q", "-m", "attributes"});
  const std::string tree = Trim(Git(repo, {"rev-parse", "HEAD^{tree}"}));
  const std::set<std::string> expected = OracleMarks(repo, paths);
  // The oracle itself tells the states apart (the fixture is not vacuous).
  CHECK(expected.count("a.gen") == 1);
  CHECK(expected.count("sub/a.gen") == 0);
  CHECK(expected.count("yarn.lock") == 0);
  CHECK(expected.count("sub/yarn.lock") == 1);
  CHECK(expected.count("package-lock.json") == 0);
  CHECK(expected.count("sub/package-lock.json") == 1);
  CHECK(expected.count("app.min.js") == 1);
  CHECK(expected.count("link/a.txt") == 0);

  auto opened = store::git::Repository::Discover(repo);
  REQUIRE(opened.ok());
  auto odb = store::git::RepositoryOdb(opened->raw());
  REQUIRE(odb.ok());
  auto marked = transaction::MarkGenerated(odb->get(), tree, paths);
  REQUIRE(marked.ok());
  const std::set<std::string> got(marked->begin(), marked->end());
  for (const std::string& p : paths) {
    INFO(p);
    CHECK(got.count(p) == expected.count(p));
  }
  CHECK(std::is_sorted(marked->begin(), marked->end()));
}

TEST_CASE(
    "generated marks: start and revise freeze them in the round's history - the record unchanged") {
  LifecycleRepo repo;
  repo.Write(".gitattributes", "gen/*.js linguist-generated\nCargo.lock -linguist-generated\n");
  repo.GitOk({"add", ".gitattributes"});
  repo.GitOk({"commit", "-q", "-m", "attributes"});
  repo.Write("gen/a.js", "var a = 1;\n");
  repo.Write("src/main.c", "int main(void) { return 0; }\n");
  repo.Write("yarn.lock", "# yarn lockfile v1\n");
  repo.Write("Cargo.lock", "version = 3\n");
  const std::vector<std::string> untracked = {"--untracked", "gen/a.js",    "--untracked",
                                              "src/main.c",  "--untracked", "yarn.lock",
                                              "--untracked", "Cargo.lock"};
  std::vector<std::string> start = {"start"};
  start.insert(start.end(), untracked.begin(), untracked.end());
  const std::string lineage = repo.ReviewOk(start)["lineage"];
  const std::string ref = ReviewRef(lineage);
  const std::string start_commit = Trim(repo.GitOk({"rev-parse", ref}));
  CHECK(repo.GitOk({"show", ref + ":generated-paths"}) == std::string("gen/a.js\0yarn.lock\0", 19));
  // The record: gentle-ai's members only.
  const Json state = repo.RecordState(lineage);
  CHECK_FALSE(state["current_snapshot"].contains("generated_path_interpretation"));
  CHECK(ReadFile(repo.record_path(lineage)).find("generated") == std::string::npos);

  // A later edit of the attributes (in the worktree, then committed) leaves round 1 as it was.
  repo.Write(".gitattributes", "src/** linguist-generated\n");
  repo.GitOk({"commit", "-q", "-am", "attributes changed"});
  CHECK(repo.GitOk({"show", start_commit + ":generated-paths"}) ==
        std::string("gen/a.js\0yarn.lock\0", 19));
  repo.ReviewOk({"verdict", "--lineage", lineage, "--verdict", "REQUEST_CHANGES", "--actor", "ana",
                 "--role", "reviewer", "--body", "Again.\n"});
  // The verdict's commit carries no marks of its own; round 1's stay in its start commit.
  CHECK(repo.Git({"cat-file", "-e", ref + ":generated-paths"}).exit_code != 0);
  repo.Write("src/main.c", "int main(void) { return 1; }\n");
  repo.ReviewOk({"revise", "--lineage", lineage});
  // Round 2 is marked from its own candidate tree, which holds the new attributes (Cargo.lock is
  // no longer unset, so the default list marks it).
  CHECK(repo.GitOk({"show", ref + ":generated-paths"}) ==
        std::string("Cargo.lock\0src/main.c\0yarn.lock\0", 32));
  CHECK(repo.GitOk({"show", start_commit + ":generated-paths"}) ==
        std::string("gen/a.js\0yarn.lock\0", 19));
}

TEST_CASE("generated marks: a round with none has no generated-paths file") {
  LifecycleRepo repo;
  repo.Write("src/main.c", "int main(void) { return 0; }\n");
  const std::string lineage = repo.ReviewOk({"start", "--untracked", "src/main.c"})["lineage"];
  const std::string tree = Trim(repo.GitOk({"ls-tree", "--name-only", ReviewRef(lineage)}));
  CHECK(tree.find("generated-paths") == std::string::npos);
}

TEST_CASE("generated marks: the history file's codec refuses what it never writes") {
  std::vector<std::string> out;
  CHECK(store::DecodeGeneratedPaths(std::string("a\0b\0", 4), &out));
  CHECK(out == std::vector<std::string>{"a", "b"});
  CHECK(store::EncodeGeneratedPaths(out) == std::string("a\0b\0", 4));
  CHECK(store::DecodeGeneratedPaths("", &out));
  CHECK(out.empty());
  CHECK_FALSE(store::DecodeGeneratedPaths(std::string("b\0a\0", 4), &out));
  CHECK_FALSE(store::DecodeGeneratedPaths(std::string("a\0a\0", 4), &out));
  CHECK_FALSE(store::DecodeGeneratedPaths(std::string("a\0b", 3), &out));
  CHECK_FALSE(store::DecodeGeneratedPaths(std::string("\0", 1), &out));
}

}  // namespace gentle::testing
