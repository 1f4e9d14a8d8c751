// Tree order in store/raw_tree.h and the tree walk of export/tree_delta.cc on trees git would never
// write: entries out of order, or a file and a subtree of one name that are not adjacent in tree
// order ("foo", "foo.c", "foo/"). Such trees are made with `git hash-object -t tree --literally`;
// CanonicalOrder must refuse them, DiffTrees must report meeting one, and the export then hands the
// patch to the pinned git CLI (byte-identical, engine "git"); canonical trees whose entries change
// between file and subtree must diff byte-identically on the native engine.
#include <git2.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "export/tree_delta.h"
#include "store/raw_tree.h"
#include "store/repository.h"
#include "store/tree_rows.h"
#include "tests/git_oracle.h"
#include "tests/test_repo.h"

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

git_oid Oid(const std::string& hex) {
  git_oid id;
  REQUIRE(git_oid_fromstr(&id, hex.c_str()) == 0);
  return id;
}

bool CanonicalOrder(git_repository* repo, const std::string& hex) {
  git_odb* odb = nullptr;
  REQUIRE(git_repository_odb(&odb, repo) == 0);
  git_oid id;
  REQUIRE(git_oid_fromstr(&id, hex.c_str()) == 0);
  auto tree = store::ReadTree(odb, id);
  git_odb_free(odb);
  REQUIRE(tree.ok());
  return tree->CanonicalOrder();
}

// A repository with a few blobs and two one-entry subtrees to build literal trees from.
struct LiteralRepo {
  LiteralRepo() : repo(InitRepo(tmp.path())) { store::EnsureLibgit2(); }
  TempDir tmp;
  const std::string repo;
  const std::string a = Blob(repo, "a\n"), b = Blob(repo, "b\n"), c = Blob(repo, "c\nc\n");
  const std::string b2 = Blob(repo, "b\nchanged\n");
  const std::string sub = LiteralTree(repo, {{"100644", "x", a}});
  const std::string sub2 = LiteralTree(repo, {{"100644", "x", c}});
};

TEST_CASE_METHOD(
    LiteralRepo,
    "raw tree order: canonical trees pass, literal ones are taken whole and still match git") {
  // As git writes them: "foo" (file) < "foo.c" < "foo/" (tree) < "foobar".
  const std::string canonical =
      LiteralTree(repo, {{"100644", "foo", a}, {"100644", "foo.c", b}, {"40000", "foo_dir", sub}});
  const std::string same_name =
      LiteralTree(repo, {{"100644", "foo", a}, {"100644", "foo.c", b}, {"40000", "foo", sub}});
  const std::string same_name_2 =
      LiteralTree(repo, {{"100644", "foo", a}, {"100644", "foo.c", b2}, {"40000", "foo", sub2}});
  const std::string unordered = LiteralTree(repo, {{"100644", "b", a}, {"100644", "a", b}});
  const std::string unordered_2 = LiteralTree(repo, {{"100644", "b", c}, {"100644", "a", b}});
  const std::string tree_before_file =
      LiteralTree(repo, {{"40000", "foo", sub}, {"100644", "foo.c", b}});

  RepoHandle handle(repo + "/.git");
  CHECK(CanonicalOrder(handle.get(), canonical));
  CHECK(CanonicalOrder(handle.get(), Trim(Git(repo, {"rev-parse", "HEAD^{tree}"}))));
  CHECK_FALSE(CanonicalOrder(handle.get(), same_name));
  CHECK_FALSE(CanonicalOrder(handle.get(), unordered));
  CHECK_FALSE(CanonicalOrder(handle.get(), tree_before_file));
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

  // Canonical trees whose walk must pair entries by name and type: "foo" turns from a file into a
  // subtree (keys "foo" and "foo/" sit on either side of "foo.c"), and back.
  const std::string file_foo = LiteralTree(repo, {{"100644", "foo", a}, {"100644", "foo.c", b}});
  const std::string tree_foo = LiteralTree(repo, {{"100644", "foo.c", b2}, {"40000", "foo", sub}});
  const std::string tree_foo_2 =
      LiteralTree(repo, {{"100644", "foo.c", b}, {"40000", "foo", sub2}});
  REQUIRE(CanonicalOrder(handle.get(), file_foo));
  REQUIRE(CanonicalOrder(handle.get(), tree_foo));
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {file_foo, tree_foo}, {tree_foo, file_foo}, {tree_foo, tree_foo_2}, {canonical, tree_foo}};
  for (const auto& [base, candidate] : pairs) {
    INFO(base << " -> " << candidate);
    auto expected = OracleDiff(repo + "/.git", base, candidate);
    REQUIRE(expected.ok());
    auto actual = EngineDiff(handle.get(), base, candidate);
    REQUIRE(actual.ok());
    CHECK(FirstDifference(*expected, actual->bytes) == "");
  }
  // DiffTrees says when a tree it read is not in canonical order: at the root, or only inside a
  // subtree that is taken whole (added) or walked (changed).
  const std::string holder = LiteralTree(repo, {{"100644", "a", a}, {"40000", "d", same_name}});
  const std::string holder_2 = LiteralTree(repo, {{"100644", "a", a}, {"40000", "d", same_name_2}});
  const std::string added_under = LiteralTree(repo, {{"100644", "a", a}});
  struct Case {
    std::string base, candidate;
    bool canonical;
  };
  for (const Case& c : std::vector<Case>{{file_foo, tree_foo, true},
                                         {same_name, same_name_2, false},
                                         {unordered, unordered_2, false},
                                         {holder, holder_2, false},
                                         {added_under, holder, false},
                                         {holder, holder, true}}) {
    INFO(c.base << " -> " << c.candidate);
    bool canonical = !c.canonical;
    REQUIRE(exporter::DiffTrees(handle.get(), Oid(c.base), Oid(c.candidate), &canonical).ok());
    CHECK(canonical == c.canonical);
  }
}

// Commits `tree` on top of `parent` (none when empty) without touching the worktree.
std::string CommitTree(const std::string& repo, const std::string& tree,
                       const std::string& parent) {
  std::vector<std::string> args = {"commit-tree", tree, "-m", "literal"};
  if (!parent.empty()) args.insert(args.end(), {"-p", parent});
  return Trim(Git(repo, args));
}

TEST_CASE_METHOD(
    LiteralRepo,
    "export: trees out of git's order are written by the pinned git CLI, byte-identical") {
  // Out of order twice over: "zeta" before "alpha", and the subtree "foo" after "foo.c".
  const std::string base = LiteralTree(repo, {{"100644", "zeta", a},
                                              {"100644", "alpha", b},
                                              {"100644", "foo.c", b},
                                              {"40000", "foo", sub}});
  const std::string candidate = LiteralTree(repo, {{"100644", "zeta", c},
                                                   {"100644", "alpha", b2},
                                                   {"100644", "foo.c", b2},
                                                   {"40000", "foo", sub2}});
  const std::string first = CommitTree(repo, base, "");
  const std::string second = CommitTree(repo, candidate, first);

  RunResult started = GentleAi(
      {"review", "start", "--kind", "commit-range", "--base", first, "--head", second, "--json"},
      repo);
  REQUIRE(started.exit_code == 0);
  const std::string lineage = nlohmann::json::parse(started.out)["lineage"];

  auto expected = OracleDiff(repo + "/.git", base, candidate);
  REQUIRE(expected.ok());
  // The native walk's order (sorted paths) is not git's here, so a native patch could not match.
  REQUIRE(expected->find("diff --git a/zeta b/zeta") < expected->find("diff --git a/alpha"));
  RunResult exported = GentleAi({"review", "export-context", "--lineage", lineage}, repo);
  REQUIRE(exported.exit_code == 0);
  CHECK(FirstDifference(*expected, exported.out) == "");
  RunResult envelope = GentleAi({"review", "export-context", "--lineage", lineage, "--json"}, repo);
  REQUIRE(envelope.exit_code == 0);
  CHECK(nlohmann::json::parse(envelope.out)["derivation"]["engine"] == "git");
  RunResult verified = GentleAi({"review", "verify", "--lineage", lineage, "--json"}, repo);
  CHECK(verified.exit_code == 0);

  // git does not check what it reads; the blobs are checked before it runs.
  ReplaceLooseObject(repo + "/.git", b2, c);
  RunResult tampered = GentleAi({"review", "export-context", "--lineage", lineage, "--json"}, repo);
  CHECK(tampered.exit_code == 8);
  CHECK(nlohmann::json::parse(tampered.out)["error"]["code"] == "objects_missing");
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
  CHECK(store::CanonicalMode(0100644) == 0100644);
  CHECK(store::CanonicalMode(0100664) == 0100644);
  CHECK(store::CanonicalMode(0100654) == 0100644);  // group execute only: not executable to git
  CHECK(store::CanonicalMode(0100611) == 0100644);
  CHECK(store::CanonicalMode(0100744) == 0100755);
  CHECK(store::CanonicalMode(0100700) == 0100755);
  CHECK(store::CanonicalMode(0120777) == 0120000);
  CHECK(store::CanonicalMode(0040755) == 0040000);
  CHECK(store::CanonicalMode(0160000) == 0160000);
  CHECK(store::CanonicalMode(0010644) == 0160000);  // any other type: a gitlink, as git shows it
  CHECK(store::CanonicalMode(0) == 0);
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
