// Tree order in store/raw_tree.h and the tree walk of export/tree_delta.cc on trees git would never
// write: entries out of order, or a file and a subtree of one name that are not adjacent in tree
// order ("foo", "foo.c", "foo/"). Such trees are made with `git hash-object -t tree --literally`;
// CanonicalOrder must refuse them (so the walk takes them whole); canonical trees whose entries
// change between file and subtree must diff byte-identically to the git CLI.
#include <git2.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "store/raw_tree.h"
#include "store/repository.h"
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

TEST_CASE(
    "raw tree order: canonical trees pass, literal ones are taken whole and still match git") {
  store::EnsureLibgit2();
  TempDir tmp;
  const std::string repo = InitRepo(tmp.path());
  const std::string a = Blob(repo, "a\n"), b = Blob(repo, "b\n"), c = Blob(repo, "c\nc\n");
  const std::string b2 = Blob(repo, "b\nchanged\n");
  const std::string sub = LiteralTree(repo, {{"100644", "x", a}});
  const std::string sub2 = LiteralTree(repo, {{"100644", "x", c}});

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
  // Trees that are not in canonical order (which git fsck reports as broken) are taken whole and
  // their rows sorted, so the patch lists paths in sorted order; git walks them as stored, so the
  // bytes can differ from git's there (docs/engine.md). What is pinned: the walk still sees every
  // changed path of such a tree.
  auto literal = EngineDiff(handle.get(), same_name, same_name_2);
  REQUIRE(literal.ok());
  CHECK(literal->bytes.find("diff --git a/foo.c b/foo.c") != std::string::npos);
  CHECK(literal->bytes.find("diff --git a/foo/x b/foo/x") != std::string::npos);
  CHECK(literal->bytes.find("diff --git a/foo b/foo") == std::string::npos);  // "foo" itself: same
  auto swapped = EngineDiff(handle.get(), unordered, unordered_2);
  REQUIRE(swapped.ok());
  CHECK(swapped->bytes.find("diff --git a/b b/b") != std::string::npos);
  CHECK(swapped->bytes.find("diff --git a/a b/a") == std::string::npos);
}

}  // namespace
}  // namespace gentle::testing
