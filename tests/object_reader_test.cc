// The verified object reader (store/git/object_reader.h, store/git/raw_tree.h,
// store/git/verified_view.h): good loose and packed objects read back as git stores them, and an
// object whose loose file was replaced by another valid object of the same type (so zlib, the
// header and the type are all fine and only the hash check can tell) is refused with
// objects_missing by every reader, with libgit2's own check off as it is in the product.
// Repositories are built with the git CLI, which is also the oracle for what an object contains.
#include "store/git/object_reader.h"

#include <git2.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "export/patch_engine.h"
#include "export/tree_delta.h"
#include "store/git/raw_tree.h"
#include "store/git/repository.h"
#include "store/git/tree_rows.h"
#include "store/git/verified_view.h"
#include "tests/support/files.h"
#include "tests/support/git_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

git_oid Oid(const std::string& hex) {
  git_oid oid;
  REQUIRE(git_oid_fromstr(&oid, hex.c_str()) == 0);
  return oid;
}

std::string HashObject(const std::string& repo, const std::string& content) {
  const std::string file = repo + "/../content.tmp";
  WriteFile(file, content);
  return Trim(Git(repo, {"hash-object", "-w", file}));
}

std::string LoosePath(const std::string& repo, const std::string& hex) {
  return LooseObjectPath(repo + "/.git", hex);
}

void SwapLoose(const std::string& repo, const std::string& victim, const std::string& donor) {
  ReplaceLooseObject(repo + "/.git", victim, donor);
}

class Opened {
 public:
  explicit Opened(const std::string& repo) {
    store::git::EnsureLibgit2();  // as the product: libgit2's own hash check off
    REQUIRE(git_repository_open(&repo_, repo.c_str()) == 0);
    REQUIRE(git_repository_odb(&odb_, repo_) == 0);
  }
  ~Opened() {
    git_odb_free(odb_);
    git_repository_free(repo_);
  }
  git_repository* repo() const { return repo_; }
  git_odb* odb() const { return odb_; }

 private:
  git_repository* repo_ = nullptr;
  git_odb* odb_ = nullptr;
};

std::string Data(git_odb_object* object) {
  return std::string(static_cast<const char*>(git_odb_object_data(object)),
                     git_odb_object_size(object));
}

// `git ls-tree` of one tree level: "<mode> <type> <id>\t<name>\n" lines, modes as stored.
std::string LsTree(const std::string& repo, const std::string& tree) {
  return Git(repo, {"ls-tree", "--full-tree", tree});
}

std::string Render(const store::git::RawTree& tree) {
  std::string out;
  for (const store::git::RawTreeEntry& e : tree.entries()) {
    char mode[16];
    std::snprintf(mode, sizeof(mode), "%06o", e.mode);
    const char* type = e.is_tree() ? "tree" : (e.mode == 0160000 ? "commit" : "blob");
    out += std::string(mode) + " " + type + " " + store::git::OidHex(e.id) + "\t" +
           std::string(e.name) + "\n";
  }
  return out;
}

void RequireMismatch(const Status& status, const std::string& object) {
  INFO(status.message());
  CHECK(status.code() == Code::kObjectsMissing);
  CHECK(status.details().at("object") == object);
}

}  // namespace

TEST_CASE("verified reader: good loose and packed objects", "[objread]") {
  TempDir tmp;
  const std::string repo = InitRepo(tmp.path());
  const std::string blob = Trim(Git(repo, {"rev-parse", "HEAD:a.txt"}));
  const std::string tree = Trim(Git(repo, {"rev-parse", "HEAD^{tree}"}));
  const std::string sub = Trim(Git(repo, {"rev-parse", "HEAD:dir"}));

  auto check_all = [&] {
    Opened o(repo);
    auto raw = store::git::ReadObject(o.odb(), Oid(blob), GIT_OBJECT_BLOB);
    REQUIRE(raw.ok());
    CHECK(Data(raw->get()) == "alpha\n");
    auto looked_up = store::git::LookupBlob(o.repo(), Oid(blob));
    REQUIRE(looked_up.ok());
    CHECK(std::string(static_cast<const char*>(git_blob_rawcontent(looked_up->get())),
                      git_blob_rawsize(looked_up->get())) == "alpha\n");
    auto root = store::git::ReadTree(o.odb(), Oid(tree));
    REQUIRE(root.ok());
    CHECK(Render(*root) == LsTree(repo, tree));
    REQUIRE(root->CanonicalOrder());
    auto rows = store::git::FlattenTree(o.repo(), Oid(tree));
    REQUIRE(rows.ok());
    REQUIRE(rows->size() == 2);
    CHECK((*rows)[0].path == "a.txt");
    CHECK((*rows)[1].path == "dir/b.txt");
    // A wrong type is refused, not misread.
    auto as_tree = store::git::ReadObject(o.odb(), Oid(blob), GIT_OBJECT_TREE);
    CHECK(as_tree.status().code() == Code::kObjectsMissing);
    // The empty tree is known without being stored.
    auto empty = store::git::ReadTree(o.odb(), Oid("4b825dc642cb6eb9a060e54bf8d69288fbee4904"));
    REQUIRE(empty.ok());
    CHECK(empty->entries().empty());
  };
  SECTION("loose") {
    REQUIRE(std::filesystem::exists(LoosePath(repo, blob)));
    check_all();
  }
  SECTION("packed") {
    Git(repo, {"gc", "-q", "--prune=now"});
    REQUIRE_FALSE(std::filesystem::exists(LoosePath(repo, blob)));
    REQUIRE_FALSE(std::filesystem::exists(LoosePath(repo, tree)));
    check_all();
  }
}

TEST_CASE("ObjectId gives git's object ids", "[objread]") {
  TempDir tmp;
  const std::string repo = InitRepo(tmp.path());
  struct Case {
    const char* type;
    const char* rev;
  };
  // Each id is the git CLI's for the same bytes and type.
  for (const Case& c :
       {Case{"blob", "HEAD:a.txt"}, Case{"tree", "HEAD^{tree}"}, Case{"commit", "HEAD"}}) {
    INFO(c.type);
    const std::string expected = Trim(Git(repo, {"rev-parse", c.rev}));
    const std::string raw = Git(repo, {"cat-file", c.type, expected});
    const git_object_t kind = git_object_string2type(c.type);
    CHECK(store::git::OidHex(store::git::ObjectId(kind, raw)) == expected);
    CHECK(store::git::ObjectHashMatches(Oid(expected), kind, raw));
    CHECK_FALSE(store::git::ObjectHashMatches(Oid(expected), kind, raw + "x"));
  }
  // The empty tree and the empty blob, as every git computes them.
  CHECK(store::git::OidHex(store::git::ObjectId(GIT_OBJECT_TREE, "")) ==
        "4b825dc642cb6eb9a060e54bf8d69288fbee4904");
  CHECK(store::git::OidHex(store::git::ObjectId(GIT_OBJECT_BLOB, "")) ==
        "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
}

TEST_CASE("verified reader: a loose blob replaced by another blob is refused", "[objread]") {
  TempDir tmp;
  const std::string repo = InitRepo(tmp.path());
  const std::string blob = Trim(Git(repo, {"rev-parse", "HEAD:a.txt"}));
  const std::string tree = Trim(Git(repo, {"rev-parse", "HEAD^{tree}"}));
  const std::string donor = HashObject(repo, "not alpha at all\n");
  SwapLoose(repo, blob, donor);
  Opened o(repo);
  // libgit2 itself no longer notices: the bytes inflate to a well-formed blob.
  git_odb_object* unchecked = nullptr;
  const git_oid blob_id = Oid(blob);
  REQUIRE(git_odb_read(&unchecked, o.odb(), &blob_id) == 0);
  CHECK(Data(unchecked) == "not alpha at all\n");
  git_odb_object_free(unchecked);

  auto raw = store::git::ReadObject(o.odb(), Oid(blob), GIT_OBJECT_BLOB);
  REQUIRE_FALSE(raw.ok());
  RequireMismatch(raw.status(), blob);
  CHECK(raw.status().details().at("reason") == "hash_mismatch");
  auto looked_up = store::git::LookupBlob(o.repo(), Oid(blob));
  REQUIRE_FALSE(looked_up.ok());
  RequireMismatch(looked_up.status(), blob);
  // The patch engine reads the blob when the file changed.
  auto patch = exporter::DerivePatch(o.repo(), Oid("4b825dc642cb6eb9a060e54bf8d69288fbee4904"),
                                     Oid(tree), {});
  REQUIRE_FALSE(patch.ok());
  RequireMismatch(patch.status(), blob);
  CHECK(patch.status().details().at("path") == "a.txt");
}

TEST_CASE("verified reader: a loose tree replaced by another tree is refused", "[objread]") {
  TempDir tmp;
  const std::string repo = InitRepo(tmp.path());
  const std::string sub = Trim(Git(repo, {"rev-parse", "HEAD:dir"}));
  const std::string root = Trim(Git(repo, {"rev-parse", "HEAD^{tree}"}));
  // Another valid tree: dir/ with a different file.
  WriteFile(repo + "/dir/b.txt", "beta, changed\n");
  Git(repo, {"add", "-A"});
  Git(repo, {"commit", "-q", "-m", "second"});
  const std::string donor = Trim(Git(repo, {"rev-parse", "HEAD:dir"}));
  const std::string new_root = Trim(Git(repo, {"rev-parse", "HEAD^{tree}"}));
  SwapLoose(repo, sub, donor);
  Opened o(repo);

  auto raw = store::git::ReadObject(o.odb(), Oid(sub), GIT_OBJECT_TREE);
  REQUIRE_FALSE(raw.ok());
  RequireMismatch(raw.status(), sub);
  auto tree = store::git::ReadTree(o.odb(), Oid(sub));
  REQUIRE_FALSE(tree.ok());
  RequireMismatch(tree.status(), sub);
  // Every tree reader: FlattenTree (start, status), DiffTrees (export, verify).
  auto rows = store::git::FlattenTree(o.repo(), Oid(root));
  REQUIRE_FALSE(rows.ok());
  CHECK(rows.status().code() == Code::kObjectsMissing);
  auto diff = exporter::DiffTrees(o.repo(), Oid(root), Oid(new_root));
  REQUIRE_FALSE(diff.ok());
  CHECK(diff.status().code() == Code::kObjectsMissing);
  SECTION("the root tree itself") {
    SwapLoose(repo, root, new_root);
    Opened fresh(repo);  // `o` holds the good root in libgit2's cache (checked when first read)
    auto again = exporter::DiffTrees(fresh.repo(), Oid(root), Oid(new_root));
    REQUIRE_FALSE(again.ok());
    CHECK(again.status().code() == Code::kObjectsMissing);
    CHECK(again.status().details().at("object") == root);
  }
}

TEST_CASE("verified view: revisions resolve through checked commits only", "[objread]") {
  TempDir tmp;
  const std::string repo = InitRepo(tmp.path());
  const std::string first = Trim(Git(repo, {"rev-parse", "HEAD"}));
  WriteFile(repo + "/a.txt", "alpha 2\n");
  Git(repo, {"commit", "-q", "-am", "second"});
  const std::string second = Trim(Git(repo, {"rev-parse", "HEAD"}));
  WriteFile(repo + "/a.txt", "alpha 3\n");
  Git(repo, {"commit", "-q", "-am", "third"});
  const std::string third = Trim(Git(repo, {"rev-parse", "HEAD"}));
  {
    Opened o(repo);
    const std::vector<std::tuple<std::string, git_object_t, std::string>> cases = {
        {"HEAD", GIT_OBJECT_COMMIT, "HEAD"},
        {"HEAD~1", GIT_OBJECT_COMMIT, "HEAD~1"},
        {"HEAD~2", GIT_OBJECT_COMMIT, "HEAD~2"},
        {"main", GIT_OBJECT_TREE, "main^{tree}"},
        {"HEAD~1:dir", GIT_OBJECT_TREE, "HEAD~1:dir"}};
    for (const auto& [rev, type, oracle] : cases) {
      auto got = store::git::PeelRev(o.repo(), rev, type);
      INFO(rev);
      REQUIRE(got.ok());
      CHECK(store::git::OidHex(*got) == Trim(Git(repo, {"rev-parse", oracle})));
    }
    auto base = store::git::MergeBase(o.repo(), Oid(third), Oid(second), "x");
    REQUIRE(base.ok());
    CHECK(store::git::OidHex(*base) == second);
  }
  // The middle commit replaced by the first one's bytes: HEAD~1's tree and HEAD~2 would silently
  // be the first commit's tree and nothing; every reader through the middle commit refuses.
  SwapLoose(repo, second, first);
  Opened o(repo);
  CHECK(store::git::PeelRev(o.repo(), "HEAD", GIT_OBJECT_COMMIT).ok());
  CHECK(store::git::PeelRev(o.repo(), "HEAD", GIT_OBJECT_TREE).ok());
  for (const std::string rev : {"HEAD~1", "HEAD~2", "HEAD~1^{tree}"}) {
    auto got = store::git::PeelRev(o.repo(), rev, GIT_OBJECT_TREE);
    INFO(rev);
    CHECK(got.status().code() == Code::kUsage);
  }
  CHECK(store::git::PeelRev(o.repo(), second, GIT_OBJECT_COMMIT).status().code() == Code::kUsage);
  CHECK(store::git::MergeBase(o.repo(), Oid(third), Oid(first), "x").status().code() ==
        Code::kUsage);
}

TEST_CASE("a simple revision peels as git peels it - through checked objects only", "[objread]") {
  TempDir tmp;
  const std::string repo = InitRepo(tmp.path());
  WriteFile(repo + "/a.txt", "alpha 2\n");
  Git(repo, {"commit", "-q", "-am", "second"});
  Git(repo, {"tag", "light"});
  Git(repo, {"tag", "-a", "-m", "annotated", "annotated"});
  Git(repo, {"tag", "-a", "-m", "a tag of a tag", "nested", "annotated"});
  Git(repo, {"branch", "side", "HEAD~1"});
  const std::string head = Trim(Git(repo, {"rev-parse", "HEAD"}));
  const std::string tree = Trim(Git(repo, {"rev-parse", "HEAD^{tree}"}));
  const std::string tag = Trim(Git(repo, {"rev-parse", "annotated"}));
  Opened o(repo);
  for (const std::string& rev :
       {std::string("HEAD"), std::string("main"), std::string("refs/heads/main"),
        std::string("side"), std::string("heads/side"), std::string("light"),
        std::string("annotated"), std::string("nested"), std::string("tags/nested"), head, tag}) {
    for (const auto& [type, suffix] :
         {std::pair{GIT_OBJECT_COMMIT, "^{commit}"}, std::pair{GIT_OBJECT_TREE, "^{tree}"}}) {
      INFO(rev << suffix);
      auto got = store::git::PeelRev(o.repo(), rev, type);
      REQUIRE(got.ok());
      CHECK(store::git::OidHex(*got) == Trim(Git(repo, {"rev-parse", rev + suffix})));
    }
  }
  auto own_tree = store::git::PeelRev(o.repo(), tree, GIT_OBJECT_TREE);
  REQUIRE(own_tree.ok());
  CHECK(store::git::OidHex(*own_tree) == tree);
  for (const std::string& rev : {std::string("absent"), tree}) {
    INFO(rev);
    CHECK(store::git::PeelRev(o.repo(), rev, GIT_OBJECT_COMMIT).status().code() == Code::kUsage);
  }
  // The annotated tag's bytes replaced by another object's: every name through it refuses.
  const std::string blob = Trim(Git(repo, {"rev-parse", "HEAD:a.txt"}));
  SwapLoose(repo, tag, blob);
  Opened fresh(repo);
  // Worded as revparse and peel word them: the named object unreadable, or one behind it.
  for (const auto& [rev, message] : std::vector<std::pair<std::string, std::string>>{
           {"annotated", "cannot resolve revision: annotated"},
           {tag, "cannot resolve revision: " + tag},
           {"nested", "revision nested does not name a tree"}}) {
    INFO(rev);
    auto refused = store::git::PeelRev(fresh.repo(), rev, GIT_OBJECT_TREE);
    CHECK(refused.status().code() == Code::kUsage);
    CHECK(refused.status().message() == message);
  }
  CHECK(store::git::PeelRev(fresh.repo(), "light", GIT_OBJECT_TREE).ok());
}

TEST_CASE("raw tree parsing refuses what libgit2 and git refuse", "[objread]") {
  std::vector<store::git::RawTreeEntry> entries;
  const std::string id(20, '\x11');
  CHECK(store::git::ParseTree("", &entries));
  CHECK(entries.empty());
  // Names point into the data: keep it alive.
  const std::string two =
      "100644 a" + std::string(1, '\0') + id + "40000 d" + std::string(1, '\0') + id;
  REQUIRE(store::git::ParseTree(two, &entries));
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].mode == 0100644);
  CHECK(entries[0].name == "a");
  CHECK_FALSE(entries[0].is_tree());
  CHECK(entries[1].mode == 040000);
  CHECK(entries[1].is_tree());
  const std::string nul(1, '\0');
  CHECK_FALSE(store::git::ParseTree(" a" + nul + id, &entries));                  // empty mode
  CHECK_FALSE(store::git::ParseTree("10064x a" + nul + id, &entries));            // not octal
  CHECK_FALSE(store::git::ParseTree("100648 a" + nul + id, &entries));            // not octal
  CHECK_FALSE(store::git::ParseTree("+100644 a" + nul + id, &entries));           // sign
  CHECK_FALSE(store::git::ParseTree("1000000 a" + nul + id, &entries));           // above 0xFFFF
  CHECK_FALSE(store::git::ParseTree("100644a" + nul + id, &entries));             // no space
  CHECK_FALSE(store::git::ParseTree("100644 " + nul + id, &entries));             // empty name
  CHECK_FALSE(store::git::ParseTree("100644 a" + nul + id.substr(1), &entries));  // short id
  CHECK_FALSE(store::git::ParseTree("100644 a" + id, &entries));                  // no NUL
}

}  // namespace gentle::testing
