// The patch engine's refusals and manifest: budget_exceeded exactly past max_bytes, objects_missing
// for absent trees, subtrees and blobs, and the manifest's statuses, canonical modes and order.
#include <git2.h>

#include <catch2/catch.hpp>
#include <functional>

#include "tests/support/bare_repo.h"
#include "tests/support/git_oracle.h"

namespace gentle::testing {
TEST_CASE("budget_exceeded exactly when the patch passes max_bytes", "[engine][budget]") {
  BareRepo repo;
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "line " + std::to_string(i) + "\n";
  git_oid empty = repo.Tree({});
  git_oid full = repo.Tree({{"a.txt", GIT_FILEMODE_BLOB, repo.Blob(text)},
                            {"b.bin", GIT_FILEMODE_BLOB, repo.Blob(std::string("x\0y", 3))}});
  auto whole = exporter::DerivePatch(repo.get(), empty, full, {});
  REQUIRE(whole.ok());
  const size_t size = whole->bytes.size();
  auto oracle = OracleDiff(repo.git_dir(), BareRepo::Hex(empty), BareRepo::Hex(full));
  REQUIRE(oracle.ok());
  REQUIRE(*oracle == whole->bytes);
  // A binary section was written, natively.
  CHECK(whole->engine == exporter::Engine::kNative);

  exporter::PatchOptions exact;
  exact.max_bytes = size;
  CHECK(exporter::DerivePatch(repo.get(), empty, full, exact).ok());

  for (size_t max : {size - 1, size / 2, size_t{10}, size_t{0}}) {
    exporter::PatchOptions tight;
    tight.max_bytes = max;
    auto refused = exporter::DerivePatch(repo.get(), empty, full, tight);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.status().code() == Code::kBudgetExceeded);
  }
}

TEST_CASE("the default budget refuses a patch above 4 MiB", "[engine][budget]") {
  BareRepo repo;
  std::string big(5 * 1024 * 1024, 'x');
  for (size_t i = 99; i < big.size(); i += 100) big[i] = '\n';
  git_oid empty = repo.Tree({});
  git_oid full = repo.Tree({{"big.txt", GIT_FILEMODE_BLOB, repo.Blob(big)}});
  auto refused = exporter::DerivePatch(repo.get(), empty, full, {});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == Code::kBudgetExceeded);
}

TEST_CASE("objects_missing for absent trees - subtrees and blobs", "[engine][missing]") {
  BareRepo repo;
  git_oid blob = repo.Blob("content\n");
  git_oid other = repo.Blob("other\n");
  git_oid sub = repo.Tree({{"inner", GIT_FILEMODE_BLOB, other}});
  git_oid base = repo.Tree({{"f", GIT_FILEMODE_BLOB, blob}});
  git_oid with_sub = repo.Tree({{"f", GIT_FILEMODE_BLOB, blob}, {"s", GIT_FILEMODE_TREE, sub}});

  SECTION("tree id not in the repository") {
    git_oid absent;
    git_oid_fromstr(&absent, "0123456789abcdef0123456789abcdef01234567");
    auto r = exporter::DerivePatch(repo.get(), absent, base, {});
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == Code::kObjectsMissing);
    auto r2 = exporter::DerivePatch(repo.get(), base, absent, {});
    REQUIRE_FALSE(r2.ok());
    CHECK(r2.status().code() == Code::kObjectsMissing);
  }
  SECTION("subtree missing") {
    repo.RemoveObject(sub);
    auto r = exporter::DerivePatch(repo.get(), base, with_sub, {});
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == Code::kObjectsMissing);
  }
  SECTION("blob missing") {
    repo.RemoveObject(other);
    auto r = exporter::DerivePatch(repo.get(), base, with_sub, {});
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == Code::kObjectsMissing);
  }
  SECTION("a gitlink's commit is never looked up") {
    git_oid commit;
    git_oid_fromstr(&commit, "1111111111111111111111111111111111111111");
    git_oid with_link =
        repo.Tree({{"f", GIT_FILEMODE_BLOB, blob}, {"m", GIT_FILEMODE_COMMIT, commit}});
    CHECK(exporter::DerivePatch(repo.get(), base, with_link, {}).ok());
  }
}

TEST_CASE("manifest lists each changed path once - in output order", "[engine][manifest]") {
  BareRepo repo;
  git_oid x = repo.Blob("x\n");
  git_oid y = repo.Blob("y\n");
  git_oid commit;
  git_oid_fromstr(&commit, "1111111111111111111111111111111111111111");
  git_oid base = repo.Tree({{"a", GIT_FILEMODE_BLOB, x},
                            {"c", GIT_FILEMODE_BLOB, x},
                            {"d", GIT_FILEMODE_BLOB, x},
                            {"e", GIT_FILEMODE_BLOB, x},
                            {"g", GIT_FILEMODE_COMMIT, commit}});
  git_oid cand = repo.Tree({{"a", GIT_FILEMODE_BLOB, y},
                            {"b", GIT_FILEMODE_BLOB_EXECUTABLE, x},
                            {"d", GIT_FILEMODE_LINK, x},
                            {"e", GIT_FILEMODE_BLOB_EXECUTABLE, x},
                            {"g", GIT_FILEMODE_BLOB, y}});
  auto r = exporter::DerivePatch(repo.get(), base, cand, {});
  REQUIRE(r.ok());
  auto oracle = OracleDiff(repo.git_dir(), BareRepo::Hex(base), BareRepo::Hex(cand));
  REQUIRE(oracle.ok());
  CHECK(FirstDifference(*oracle, r->bytes) == "");
  CHECK(r->engine == exporter::Engine::kNative);
  const std::string xs = BareRepo::Hex(x), ys = BareRepo::Hex(y), zero(40, '0');
  std::vector<std::tuple<std::string, char, std::string, std::string, std::string, std::string>>
      expected = {{"a", 'M', "100644", "100644", xs, ys},
                  {"b", 'A', "000000", "100755", zero, xs},
                  {"c", 'D', "100644", "000000", xs, zero},
                  {"d", 'T', "100644", "120000", xs, xs},
                  {"e", 'M', "100644", "100755", xs, xs},
                  {"g", 'T', "160000", "100644", BareRepo::Hex(commit), ys}};
  REQUIRE(r->manifest.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const auto& m = r->manifest[i];
    CHECK(std::tie(m.path, m.status, m.old_mode, m.new_mode, m.old_oid, m.new_oid) == expected[i]);
  }
}

// Enough files to take the two-thread path: the answer must still be the sequential one.
TEST_CASE("many files: first error in patch order wins - budget cut is exact", "[engine][budget]") {
  BareRepo repo;
  std::vector<std::tuple<std::string, git_filemode_t, git_oid>> entries;
  std::vector<git_oid> blobs;
  for (int i = 0; i < 60; ++i) {
    std::string text;
    for (int l = 0; l < 40; ++l)
      text += "file " + std::to_string(i) + " line " + std::to_string(l) + "\n";
    blobs.push_back(repo.Blob(text));
    char name[16];
    std::snprintf(name, sizeof(name), "f%02d", i);
    entries.emplace_back(name, GIT_FILEMODE_BLOB, blobs.back());
  }
  git_oid empty = repo.Tree({});
  git_oid full = repo.Tree(entries);
  auto whole = exporter::DerivePatch(repo.get(), empty, full, {});
  REQUIRE(whole.ok());
  REQUIRE(whole->manifest.size() == 60);
  auto oracle = OracleDiff(repo.git_dir(), BareRepo::Hex(empty), BareRepo::Hex(full));
  REQUIRE(oracle.ok());
  CHECK(FirstDifference(*oracle, whole->bytes) == "");
  for (int round = 0; round < 20; ++round) {
    CHECK(exporter::DerivePatch(repo.get(), empty, full, {})->bytes == whole->bytes);
  }
  const size_t size = whole->bytes.size();
  exporter::PatchOptions exact;
  exact.max_bytes = size;
  CHECK(exporter::DerivePatch(repo.get(), empty, full, exact).ok());
  exact.max_bytes = size - 1;
  CHECK(exporter::DerivePatch(repo.get(), empty, full, exact).status().code() ==
        Code::kBudgetExceeded);

  repo.RemoveObject(blobs[45]);
  CHECK(exporter::DerivePatch(repo.get(), empty, full, {}).status().code() ==
        Code::kObjectsMissing);
  exporter::PatchOptions small;
  small.max_bytes = size / 10;  // passed long before file 45
  CHECK(exporter::DerivePatch(repo.get(), empty, full, small).status().code() ==
        Code::kBudgetExceeded);
}

// `count` files f00, f01, ...: file i of lines_of(i) lines "file i line l" in the base tree, and
// `edit` of that text in the candidate tree; the blobs of both sides kept, and the engine's whole
// patch, which must be the pinned git diff's bytes.
struct ManyFiles {
  git_oid base;
  git_oid cand;
  std::vector<git_oid> old_blobs;
  std::vector<git_oid> new_blobs;
  std::string patch;
  ManyFiles(BareRepo& repo, int count, const std::function<int(int)>& lines_of,
            const std::function<void(std::string*)>& edit) {
    std::vector<std::tuple<std::string, git_filemode_t, git_oid>> before;
    std::vector<std::tuple<std::string, git_filemode_t, git_oid>> after;
    for (int i = 0; i < count; ++i) {
      std::string text;
      for (int l = 0; l < lines_of(i); ++l) {
        text += "file " + std::to_string(i) + " line " + std::to_string(l) + "\n";
      }
      old_blobs.push_back(repo.Blob(text));
      edit(&text);
      new_blobs.push_back(repo.Blob(text));
      char name[16];
      std::snprintf(name, sizeof(name), "f%02d", i);
      before.emplace_back(name, GIT_FILEMODE_BLOB, old_blobs.back());
      after.emplace_back(name, GIT_FILEMODE_BLOB, new_blobs.back());
    }
    base = repo.Tree(before);
    cand = repo.Tree(after);
    auto whole = exporter::DerivePatch(repo.get(), base, cand, {});
    REQUIRE(whole.ok());
    auto oracle = OracleDiff(repo.git_dir(), BareRepo::Hex(base), BareRepo::Hex(cand));
    REQUIRE(oracle.ok());
    CHECK(FirstDifference(*oracle, whole->bytes) == "");
    patch = whole->bytes;
  }
};

// With many files both threads describe them from their object headers, in whatever order they
// claim them (export/patch_engine.cc): a file that cannot be described is the error, and the
// first such file in patch order wins, whichever thread met which first.
TEST_CASE("many files described on two threads: the first missing blob in patch order wins",
          "[engine][missing]") {
  BareRepo repo;
  ManyFiles files(
      repo, 40, [](int) { return 50; }, [](std::string* text) { *text += "one more line\n"; });
  const std::vector<git_oid>& new_blobs = files.new_blobs;
  const git_oid base = files.base;
  const git_oid cand = files.cand;
  repo.RemoveObject(new_blobs[37]);
  repo.RemoveObject(new_blobs[3]);
  for (int round = 0; round < 20; ++round) {
    auto missing = exporter::DerivePatch(repo.get(), base, cand, {});
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.status().code() == Code::kObjectsMissing);
    CHECK(missing.status().message().find(BareRepo::Hex(new_blobs[3])) != std::string::npos);
  }
  // A budget the described files before the first missing one already pass is refused as over
  // the budget, before any blob is read.
  exporter::PatchOptions tiny;
  tiny.max_bytes = 64;
  CHECK(exporter::DerivePatch(repo.get(), base, cand, tiny).status().code() ==
        Code::kBudgetExceeded);
}

// Files over 256 KiB among many: the helper reads their sides ahead and the calling thread diffs
// them (export/patch_engine.cc). The bytes and the first error are still the sequential ones.
TEST_CASE("many files with large ones read ahead: the oracle's bytes - the first error",
          "[engine]") {
  BareRepo repo;
  auto large = [](int i) { return i % 6 == 2; };  // 4 files of about 400 KB a side
  ManyFiles files(
      repo, 24, [&](int i) { return large(i) ? 20000 : 30; },
      [](std::string* text) { text->insert(text->size() / 2, "a line in the middle\n"); });
  std::vector<git_oid> old_large;
  for (int i = 0; i < 24; ++i) {
    if (large(i)) old_large.push_back(files.old_blobs[i]);
  }
  const git_oid base = files.base;
  const git_oid cand = files.cand;
  for (int round = 0; round < 10; ++round) {
    CHECK(exporter::DerivePatch(repo.get(), base, cand, {})->bytes == files.patch);
  }
  // The second and fourth large files lose their old side: the error names the first of them.
  repo.RemoveObject(old_large[3]);
  repo.RemoveObject(old_large[1]);
  auto missing = exporter::DerivePatch(repo.get(), base, cand, {});
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().code() == Code::kObjectsMissing);
  CHECK(missing.status().message().find(BareRepo::Hex(old_large[1])) != std::string::npos);
  CHECK(missing.status().message().find(BareRepo::Hex(old_large[3])) == std::string::npos);
}

}  // namespace gentle::testing
