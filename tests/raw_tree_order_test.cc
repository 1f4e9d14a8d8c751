// Trees git would never write, made with `git hash-object -t tree --literally` (git fsck calls them
// broken): entries out of order at the root and in subtrees, a name twice, a file and a subtree of
// one name (adjacent or not), an empty subtree out of place. git walks them as stored, and so must
// the native engine: its patch must be byte-identical to the pinned git CLI oracle, its change
// list must be `git diff-tree -r --raw`'s in git's order, and `review start` must record as
// `paths` what git lists (sorted bytewise, a path git lists twice kept twice) so that
// `review export-context` re-derives and exports them natively. Also: RawTree::CanonicalOrder on
// such trees, and git's canon_mode.
#include <git2.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "export/patch_engine.h"
#include "store/git/raw_tree.h"
#include "store/git/repository.h"
#include "store/git/tree_rows.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_oracle.h"
#include "tests/support/git_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

struct Entry {
  std::string mode;  // as written, e.g. "100644", "40000"
  std::string name;
  std::string hex;
};

std::string RawId(const std::string& hex) {
  std::string raw;
  for (size_t i = 0; i < hex.size(); i += 2) {
    raw.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return raw;
}

// Writes the entries as a tree object exactly in the given order; returns its id.
std::string LiteralTree(const std::string& repo, const std::vector<Entry>& entries) {
  std::string data;
  for (const Entry& e : entries) data += e.mode + " " + e.name + '\0' + RawId(e.hex);
  const std::string file = repo + "/../tree.bin";
  WriteFile(file, data);
  return Trim(Git(repo, {"hash-object", "-t", "tree", "--literally", "-w", file}));
}

std::string Blob(const std::string& repo, const std::string& content) {
  const std::string file = repo + "/../blob.tmp";
  WriteFile(file, content);
  return Trim(Git(repo, {"hash-object", "-w", file}));
}

bool CanonicalOrder(git_repository* repo, const std::string& hex) {
  git_odb* odb = nullptr;
  REQUIRE(git_repository_odb(&odb, repo) == 0);
  git_oid id;
  REQUIRE(git_oid_fromstr(&id, hex.c_str()) == 0);
  auto tree = store::git::ReadTree(odb, id);
  git_odb_free(odb);
  REQUIRE(tree.ok());
  return tree->CanonicalOrder();
}

// Commits `tree` on top of `parent` (none when empty) without touching the worktree.
std::string CommitTree(const std::string& repo, const std::string& tree,
                       const std::string& parent) {
  std::vector<std::string> args = {"commit-tree", tree, "-m", "literal"};
  if (!parent.empty()) args.insert(args.end(), {"-p", parent});
  return Trim(Git(repo, args));
}

// `git diff-tree -r -z --raw` of two trees: one record per change, in git's order.
std::string OracleRaw(const std::string& repo, const std::string& base,
                      const std::string& candidate) {
  return Git(repo, {"diff-tree", "-r", "-z", "--no-renames", "--full-index",
                    "--ignore-submodules=none", base, candidate});
}

// The same records from the engine's manifest (in its output order).
std::string ManifestRaw(const std::vector<exporter::ManifestEntry>& manifest) {
  std::string raw;
  for (const exporter::ManifestEntry& e : manifest) {
    raw += ":" + e.old_mode + " " + e.new_mode + " " + e.old_oid + " " + e.new_oid + " " +
           std::string(1, e.status) + '\0' + e.path + '\0';
  }
  return raw;
}

// The paths of `git diff-tree -r --name-only`, sorted bytewise (duplicates kept): what `paths`
// holds.
std::vector<std::string> OracleSortedPaths(const std::string& repo, const std::string& base,
                                           const std::string& candidate) {
  const std::string listed = Git(repo, {"diff-tree", "-r", "-z", "--name-only", "--no-renames",
                                        "--ignore-submodules=none", base, candidate});
  std::vector<std::string> paths;
  for (size_t at = 0; at < listed.size();) {
    const size_t nul = listed.find('\0', at);
    paths.push_back(listed.substr(at, nul - at));
    at = nul + 1;
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

// A repository with blobs (text and binary) and subtrees, some out of order, to build literal
// trees from.
struct LiteralRepo {
  LiteralRepo() : repo(InitRepo(tmp.path())) { store::git::EnsureLibgit2(); }
  TempDir tmp;
  const std::string repo;
  const std::string a = Blob(repo, "a\n"), b = Blob(repo, "b\n"), c = Blob(repo, "c\nc\n");
  const std::string b2 = Blob(repo, "b\nchanged\n");
  const std::string bin1 = Blob(repo, std::string("\x89PNG\0\1\2\3 binary one\n", 20) +
                                          std::string(300, 'x') + std::string(1, '\0'));
  const std::string bin2 = Blob(repo, std::string("\x89PNG\0\1\2\3 binary two\n", 20) +
                                          std::string(300, 'x') + std::string("tail\0", 5));
  const std::string gitlink1 = "1111111111111111111111111111111111111111";
  const std::string gitlink2 = "2222222222222222222222222222222222222222";
  const std::string empty = LiteralTree(repo, {});
  const std::string sub = LiteralTree(repo, {{"100644", "x", a}});
  const std::string sub2 = LiteralTree(repo, {{"100644", "x", c}});
  // Out of order inside: "y" before "x".
  const std::string sub_unordered = LiteralTree(repo, {{"100644", "y", a}, {"100644", "x", b}});
  const std::string sub_unordered_2 =
      LiteralTree(repo, {{"100644", "y", b2}, {"100644", "x", b}, {"100644", "w", bin1}});
};

TEST_CASE_METHOD(LiteralRepo,
                 "raw tree order: CanonicalOrder accepts what git writes and refuses literal trees "
                 "out of order") {
  RepoHandle handle(repo + "/.git");
  // As git writes them: "foo" (file) < "foo.c" < "foo/" (tree) < "foobar".
  CHECK(CanonicalOrder(handle.get(), LiteralTree(repo, {{"100644", "foo", a},
                                                        {"100644", "foo.c", b},
                                                        {"40000", "foo_dir", sub}})));
  CHECK(CanonicalOrder(handle.get(), Trim(Git(repo, {"rev-parse", "HEAD^{tree}"}))));
  CHECK_FALSE(CanonicalOrder(
      handle.get(),
      LiteralTree(repo, {{"100644", "foo", a}, {"100644", "foo.c", b}, {"40000", "foo", sub}})));
  CHECK_FALSE(CanonicalOrder(handle.get(), sub_unordered));
  CHECK_FALSE(CanonicalOrder(handle.get(),
                             LiteralTree(repo, {{"40000", "foo", sub}, {"100644", "foo.c", b}})));
  CHECK_FALSE(
      CanonicalOrder(handle.get(), LiteralTree(repo, {{"100644", "a", a}, {"100644", "a", b}})));
  // A file and a subtree of one name with several names between them (each extends "foo" with a
  // byte below '/'), and the same without the file.
  CHECK_FALSE(CanonicalOrder(handle.get(), LiteralTree(repo, {{"100644", "foo", a},
                                                              {"100644", "foo-x", b},
                                                              {"100644", "foo.c", b},
                                                              {"40000", "foo.d", sub},
                                                              {"40000", "foo", sub}})));
  CHECK(CanonicalOrder(handle.get(), LiteralTree(repo, {{"100644", "fo", a},
                                                        {"100644", "foo-x", b},
                                                        {"100644", "foo.c", b},
                                                        {"40000", "foo.d", sub},
                                                        {"40000", "foo", sub}})));
}

// Pairs of broken trees (base, candidate): every change kind on both sides of each shape.
std::vector<std::pair<std::string, std::string>> BrokenPairs(const LiteralRepo& r) {
  const std::string& repo = r.repo;
  auto tree = [&repo](const std::vector<Entry>& entries) { return LiteralTree(repo, entries); };
  std::vector<std::pair<std::string, std::string>> pairs = {
      // Out of order at the root, modified in place.
      {tree({{"100644", "zeta", r.a}, {"100644", "alpha", r.b}, {"100644", "mid", r.c}}),
       tree({{"100644", "zeta", r.c}, {"100644", "alpha", r.b2}, {"100644", "mid", r.c}})},
      // The same entries, reordered: git meets "a" on one side only, twice.
      {tree({{"100644", "b", r.a}, {"100644", "a", r.b}}),
       tree({{"100644", "a", r.b}, {"100644", "b", r.a}})},
      // Out of order with additions, deletions and a binary file.
      {tree({{"100644", "m", r.a}, {"100644", "c", r.b}, {"100644", "x", r.c}}),
       tree({{"100644", "c", r.b2},
             {"100644", "z", r.a},
             {"100644", "m", r.a},
             {"100644", "a", r.bin1}})},
      // Out of order inside a subtree only, and the subtree moved in the root's order.
      {tree({{"100644", "a", r.a}, {"40000", "d", r.sub_unordered}, {"100644", "e", r.b}}),
       tree({{"100644", "e", r.b}, {"40000", "d", r.sub_unordered_2}, {"100644", "a", r.a}})},
      // A file and a subtree of one name, adjacent, the subtree first on one side.
      {tree({{"100644", "foo", r.a}, {"40000", "foo", r.sub}, {"100644", "z", r.c}}),
       tree({{"40000", "foo", r.sub2}, {"100644", "foo", r.b}, {"100644", "z", r.c}})},
      // A file and a subtree of one name, not adjacent, in both orders.
      {tree({{"100644", "foo", r.a}, {"100644", "foo.c", r.b}, {"40000", "foo", r.sub}}),
       tree(
           {{"40000", "foo", r.sub_unordered}, {"100644", "foo.c", r.b2}, {"100644", "foo", r.b}})},
      // A name twice: a file, and a subtree.
      {tree({{"100644", "a", r.a},
             {"100644", "a", r.b},
             {"40000", "d", r.sub},
             {"40000", "d", r.sub2}}),
       tree({{"100644", "a", r.a}, {"40000", "d", r.sub2}})},
      // An empty subtree out of place: every name after it is met on one side only.
      {tree({{"40000", "e", r.empty}, {"100644", "a", r.a}, {"100644", "b", r.b}}),
       tree({{"100644", "a", r.a}, {"100644", "b", r.b2}})},
      // Binary files modified out of order.
      {tree({{"100644", "z", r.bin1}, {"100644", "y", r.a}}),
       tree({{"100644", "y", r.a}, {"100644", "z", r.bin2}})},
      // Type changes (file, symlink, gitlink) and modes, out of order.
      {tree({{"120000", "l", r.a},
             {"160000", "g", r.gitlink1},
             {"100644", "f", r.a},
             {"100755", "e", r.b}}),
       tree({{"100644", "f", r.b},
             {"100644", "l", r.a},
             {"160000", "g", r.gitlink2},
             {"100644", "e", r.b}})},
      // A file turns into a subtree (and back in reverse) among entries out of order.
      {tree({{"100644", "q", r.a}, {"100644", "p", r.b}}),
       tree({{"100644", "p", r.b}, {"40000", "q", r.sub_unordered}})},
  };
  return pairs;
}

TEST_CASE_METHOD(LiteralRepo,
                 "engine on trees out of git's order walks them as stored like the git CLI") {
  RepoHandle handle(repo + "/.git");
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const auto& [base, candidate] : BrokenPairs(*this)) {
    pairs.push_back({base, candidate});
    pairs.push_back({candidate, base});
    pairs.push_back({empty, candidate});
    pairs.push_back({base, empty});
  }
  for (const auto& [base, candidate] : pairs) {
    INFO(base << " -> " << candidate);
    auto expected = OracleDiff(repo + "/.git", base, candidate);
    REQUIRE(expected.ok());
    auto actual = EngineDiff(handle.get(), base, candidate);
    REQUIRE(actual.ok());
    CHECK(FirstDifference(*expected, actual->bytes) == "");
    CHECK(actual->engine == exporter::Engine::kNative);
    // The change list itself, in git's order: statuses, canonical modes and ids.
    CHECK(ManifestRaw(actual->manifest) == OracleRaw(repo, base, candidate));
  }
}

TEST_CASE_METHOD(LiteralRepo,
                 "export: commit-range on trees out of git's order is native and equals the "
                 "oracle") {
  // Root out of order ("zeta" before "alpha"), a file and a subtree of one name ("foo", not
  // adjacent), a subtree out of order inside, a binary file, and "same" reordered without a
  // change, which git shows deleted and added.
  const std::string base = LiteralTree(repo, {{"100644", "zeta", a},
                                              {"100644", "alpha", b},
                                              {"100644", "foo", a},
                                              {"100644", "foo.c", b},
                                              {"40000", "foo", sub_unordered},
                                              {"100644", "same", c},
                                              {"100644", "img", bin1}});
  const std::string candidate = LiteralTree(repo, {{"100644", "same", c},
                                                   {"100644", "zeta", c},
                                                   {"100644", "alpha", b2},
                                                   {"40000", "foo", sub_unordered_2},
                                                   {"100644", "foo.c", b2},
                                                   {"100644", "img", bin2},
                                                   {"100644", "new", a}});
  const std::string first = CommitTree(repo, base, "");
  const std::string second = CommitTree(repo, candidate, first);

  RunResult started = GentleAi(
      {"review", "start", "--kind", "commit-range", "--base", first, "--head", second, "--json"},
      repo);
  REQUIRE(started.exit_code == 0);
  const std::string lineage = nlohmann::json::parse(started.out)["lineage"];
  const std::vector<std::string> git_paths = OracleSortedPaths(repo, base, candidate);
  REQUIRE(std::count(git_paths.begin(), git_paths.end(), "same") == 2);
  const nlohmann::json record = nlohmann::json::parse(
      ReadFile(repo + "/.git/gentle-ai/review-transactions/v2/" + lineage + "/review-state.json"));
  CHECK(record["state"]["initial_snapshot"]["paths"] == nlohmann::json(git_paths));

  auto expected = OracleDiff(repo + "/.git", base, candidate);
  REQUIRE(expected.ok());
  RunResult exported = GentleAi({"review", "export-context", "--lineage", lineage}, repo);
  REQUIRE(exported.exit_code == 0);
  CHECK(FirstDifference(*expected, exported.out) == "");
  RunResult envelope = GentleAi({"review", "export-context", "--lineage", lineage, "--json"}, repo);
  REQUIRE(envelope.exit_code == 0);
  const nlohmann::json json = nlohmann::json::parse(envelope.out);
  CHECK(json["derivation"]["engine"] == "native");
  // The manifest keeps bytewise path order (not the patch's), one entry per change.
  std::vector<std::string> manifest_paths;
  for (const auto& entry : json["changed_path_manifest"]) manifest_paths.push_back(entry["path"]);
  CHECK(manifest_paths == git_paths);
  RunResult verified = GentleAi({"review", "verify", "--lineage", lineage, "--json"}, repo);
  CHECK(verified.exit_code == 0);
  RunResult forced =
      GentleAi({"review", "export-context", "--lineage", lineage, "--engine", "git"}, repo);
  REQUIRE(forced.exit_code == 0);
  CHECK(forced.out == exported.out);

  // Every blob of the patch is read hash-checked.
  ReplaceLooseObject(repo + "/.git", b2, c);
  RunResult tampered = GentleAi({"review", "export-context", "--lineage", lineage, "--json"}, repo);
  CHECK(tampered.exit_code == 8);
  CHECK(nlohmann::json::parse(tampered.out)["error"]["code"] == "objects_missing");
}

TEST_CASE_METHOD(LiteralRepo,
                 "start and status on a HEAD tree out of git's order record git's paths") {
  // HEAD's tree lists "zeta" before "alpha"; the candidate made from the index is in git's order,
  // so git's walk meets "alpha" on each side apart: deleted and added, twice in `paths`.
  const std::string head =
      CommitTree(repo, LiteralTree(repo, {{"100644", "zeta", a}, {"100644", "alpha", b}}), "");
  Git(repo, {"reset", "-q", "--hard", head});
  WriteFile(repo + "/alpha", "alpha, changed\n");
  RunResult started = GentleAi({"review", "start", "--json"}, repo);
  REQUIRE(started.exit_code == 0);
  const std::string lineage = nlohmann::json::parse(started.out)["lineage"];
  const nlohmann::json snapshot =
      nlohmann::json::parse(ReadFile(repo + "/.git/gentle-ai/review-transactions/v2/" + lineage +
                                     "/review-state.json"))["state"]["initial_snapshot"];
  const std::string base = snapshot["base_tree"], candidate = snapshot["candidate_tree"];
  CHECK(snapshot["paths"] == nlohmann::json(OracleSortedPaths(repo, base, candidate)));
  CHECK(snapshot["paths"] == nlohmann::json::array({"alpha", "alpha"}));
  // status hashes the candidate without writing it and must reach the same snapshot.
  RunResult status = GentleAi({"review", "status", "--lineage", lineage, "--json"}, repo);
  REQUIRE(status.exit_code == 0);
  CHECK(nlohmann::json::parse(status.out)["lineages"][0]["applicability"] == "current_target");

  auto expected = OracleDiff(repo + "/.git", base, candidate);
  REQUIRE(expected.ok());
  RunResult exported = GentleAi({"review", "export-context", "--lineage", lineage}, repo);
  REQUIRE(exported.exit_code == 0);
  CHECK(FirstDifference(*expected, exported.out) == "");
  RunResult envelope = GentleAi({"review", "export-context", "--lineage", lineage, "--json"}, repo);
  REQUIRE(envelope.exit_code == 0);
  CHECK(nlohmann::json::parse(envelope.out)["derivation"]["engine"] == "native");
}

TEST_CASE_METHOD(LiteralRepo, "export: canonical literal trees stay on the native engine") {
  const std::string first = CommitTree(repo, LiteralTree(repo, {{"100644", "f", a}}), "");
  const std::string second = CommitTree(repo, LiteralTree(repo, {{"100644", "f", b}}), first);
  RunResult started = GentleAi(
      {"review", "start", "--kind", "commit-range", "--base", first, "--head", second, "--json"},
      repo);
  REQUIRE(started.exit_code == 0);
  const std::string lineage = nlohmann::json::parse(started.out)["lineage"];
  RunResult envelope = GentleAi({"review", "export-context", "--lineage", lineage, "--json"}, repo);
  REQUIRE(envelope.exit_code == 0);
  CHECK(nlohmann::json::parse(envelope.out)["derivation"]["engine"] == "native");
}

TEST_CASE("canonical modes follow git's canon_mode: the owner-execute bit decides") {
  CHECK(store::git::CanonicalMode(0100644) == 0100644);
  CHECK(store::git::CanonicalMode(0100664) == 0100644);
  CHECK(store::git::CanonicalMode(0100654) ==
        0100644);  // group execute only: not executable to git
  CHECK(store::git::CanonicalMode(0100611) == 0100644);
  CHECK(store::git::CanonicalMode(0100744) == 0100755);
  CHECK(store::git::CanonicalMode(0100700) == 0100755);
  CHECK(store::git::CanonicalMode(0120777) == 0120000);
  CHECK(store::git::CanonicalMode(0040755) == 0040000);
  CHECK(store::git::CanonicalMode(0160000) == 0160000);
  CHECK(store::git::CanonicalMode(0010644) ==
        0160000);  // any other type: a gitlink, as git shows it
  CHECK(store::git::CanonicalMode(0) == 0);
}

TEST_CASE_METHOD(LiteralRepo, "a mode git canonicalises away is no change for start or export") {
  // f: 100644 -> 100654 with the same blob, which git diff does not show; g really changes.
  const std::string first =
      CommitTree(repo, LiteralTree(repo, {{"100644", "f", a}, {"100644", "g", b}}), "");
  const std::string second =
      CommitTree(repo, LiteralTree(repo, {{"100654", "f", a}, {"100644", "g", b2}}), first);
  RunResult started = GentleAi(
      {"review", "start", "--kind", "commit-range", "--base", first, "--head", second, "--json"},
      repo);
  REQUIRE(started.exit_code == 0);
  CHECK(nlohmann::json::parse(started.out)["changed_path_count"] == 1);
  const std::string lineage = nlohmann::json::parse(started.out)["lineage"];
  auto expected = OracleDiff(repo + "/.git", Trim(Git(repo, {"rev-parse", first + "^{tree}"})),
                             Trim(Git(repo, {"rev-parse", second + "^{tree}"})));
  REQUIRE(expected.ok());
  RunResult exported = GentleAi({"review", "export-context", "--lineage", lineage}, repo);
  REQUIRE(exported.exit_code == 0);
  CHECK(FirstDifference(*expected, exported.out) == "");
  CHECK(exported.out.find("diff --git a/f b/f") == std::string::npos);
}

}  // namespace
}  // namespace gentle::testing
