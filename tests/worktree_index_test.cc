// store::git::ReadWorktreeIndex against libgit2's git_index_open on index files written by the git
// CLI: every field of every entry must match, and the files the reader declines (split index,
// sparse index, bad checksum, paths libgit2 refuses) must come back as nullopt so the caller falls
// back.
#include "store/git/worktree_index.h"

#include <git2.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "store/git/tree_rows.h"
#include "tests/support/files.h"
#include "tests/support/git_env.h"
#include "tests/support/git_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

// Compares the reader's entries with libgit2's parse of the same file, field by field.
void CheckSameAsLibgit2(const std::string& index_path, uint32_t expected_version) {
  std::optional<store::git::WorktreeIndex> ours = store::git::ReadWorktreeIndex(index_path);
  REQUIRE(ours.has_value());
  CHECK(ours->version == expected_version);
  git_libgit2_init();
  git_index* index = nullptr;
  REQUIRE(git_index_open(&index, index_path.c_str()) == 0);
  REQUIRE(ours->entries.size() == git_index_entrycount(index));
  for (size_t i = 0; i < ours->entries.size(); ++i) {
    const store::git::WorktreeIndexEntry& a = ours->entries[i];
    const git_index_entry* b = git_index_get_byindex(index, i);
    INFO("entry " << i << " " << b->path);
    CHECK(a.path == b->path);
    CHECK(a.ctime_seconds == static_cast<uint32_t>(b->ctime.seconds));
    CHECK(a.ctime_nanoseconds == b->ctime.nanoseconds);
    CHECK(a.mtime_seconds == static_cast<uint32_t>(b->mtime.seconds));
    CHECK(a.mtime_nanoseconds == b->mtime.nanoseconds);
    CHECK(a.dev == b->dev);
    CHECK(a.ino == b->ino);
    CHECK(a.mode == b->mode);
    CHECK(a.uid == b->uid);
    CHECK(a.gid == b->gid);
    CHECK(a.file_size == b->file_size);
    CHECK(store::git::OidHex(a.id) == store::git::OidHex(b->id));
    CHECK(a.flags == b->flags);
    CHECK(a.flags_extended == b->flags_extended);
    CHECK(a.stage() == git_index_entry_stage(b));
  }
  git_index_free(index);
  git_libgit2_shutdown();
}

// A repository with nested directories, an executable, a symlink, an empty file and odd names.
std::string VariedRepo(const std::string& parent) {
  std::string repo = InitRepo(parent);
  WriteFile(repo + "/dir/sub/deep/c.txt", "gamma\n");
  WriteFile(repo + "/dir/sub/deep/d.txt", "delta\n");
  WriteFile(repo + "/dir/sub2/e.txt", "epsilon\n");
  WriteFile(repo + "/sp ace \xc3\xa9.txt", "odd\n");
  WriteFile(repo + "/empty", "");
  WriteFile(repo + "/.gitattributes", "*.dat binary\n");
  WriteFile(repo + "/run.sh", "#!/bin/sh\n");
  REQUIRE(chmod((repo + "/run.sh").c_str(), 0755) == 0);
  REQUIRE(symlink("a.txt", (repo + "/link").c_str()) == 0);
  Git(repo, {"add", "-A"});
  Git(repo, {"commit", "-q", "-m", "varied"});
  return repo;
}

}  // namespace

TEST_CASE("index reader matches libgit2 on a version 2 index") {
  TempDir tmp;
  std::string repo = VariedRepo(tmp.path());
  CheckSameAsLibgit2(repo + "/.git/index", 2);
}

TEST_CASE("index reader matches libgit2 on version 3 with intent-to-add and skip-worktree") {
  TempDir tmp;
  std::string repo = VariedRepo(tmp.path());
  WriteFile(repo + "/intended.txt", "later\n");
  Git(repo, {"add", "-N", "intended.txt"});
  Git(repo, {"update-index", "--skip-worktree", "dir/b.txt"});
  Git(repo, {"update-index", "--assume-unchanged", "a.txt"});
  const std::string index = ReadFile(repo + "/.git/index");
  REQUIRE(index.substr(4, 4) == std::string("\0\0\0\3", 4));
  CheckSameAsLibgit2(repo + "/.git/index", 3);
  auto ours = store::git::ReadWorktreeIndex(repo + "/.git/index");
  REQUIRE(ours.has_value());
  std::vector<std::string> intent, skip;
  for (const auto& e : ours->entries) {
    if (e.flags_extended & GIT_INDEX_ENTRY_INTENT_TO_ADD) intent.emplace_back(e.path);
    if (e.flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE) skip.emplace_back(e.path);
  }
  CHECK(intent == std::vector<std::string>{"intended.txt"});
  CHECK(skip == std::vector<std::string>{"dir/b.txt"});
}

TEST_CASE("index reader matches libgit2 on a version 4 (prefix-compressed) index") {
  TempDir tmp;
  std::string repo = VariedRepo(tmp.path());
  Git(repo, {"update-index", "--index-version", "4"});
  WriteFile(repo + "/intended.txt", "later\n");
  Git(repo, {"add", "-N", "intended.txt"});
  CheckSameAsLibgit2(repo + "/.git/index", 4);
}

TEST_CASE("index reader matches libgit2 with conflict stages and optional extensions") {
  TempDir tmp;
  std::string repo = VariedRepo(tmp.path());
  Git(repo, {"checkout", "-q", "-b", "other"});
  WriteFile(repo + "/a.txt", "other side\n");
  Git(repo, {"commit", "-q", "-am", "other"});
  Git(repo, {"checkout", "-q", "main"});
  WriteFile(repo + "/a.txt", "main side\n");
  Git(repo, {"commit", "-q", "-am", "main"});
  CHECK(GitRun(repo, {"merge", "-q", "other"}).exit_code != 0);  // conflict: stages 1, 2, 3
  // Untracked cache (UNTR) and cache tree (TREE) extensions are present and must be skipped.
  Git(repo, {"update-index", "--untracked-cache"});
  Git(repo, {"status", "--porcelain"});
  auto ours = store::git::ReadWorktreeIndex(repo + "/.git/index");
  REQUIRE(ours.has_value());
  int stages = 0;
  for (const auto& e : ours->entries) stages += e.path == "a.txt" && e.stage() > 0;
  CHECK(stages == 3);
  CheckSameAsLibgit2(repo + "/.git/index", 2);
}

TEST_CASE("index reader handles a path of exactly 0xFFF bytes and declines one of 4096") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  const std::string blob = Trim(Git(repo, {"rev-parse", "HEAD:a.txt"}));
  auto long_path = [](size_t n) {  // directories of 200 bytes, then a file name
    std::string p;
    while (p.size() + 201 < n) p += std::string(200, 'd') + "/";
    return p + std::string(n - p.size(), 'f');
  };
  Git(repo, {"update-index", "--add", "--cacheinfo", "100644," + blob + "," + long_path(4095)});
  CheckSameAsLibgit2(repo + "/.git/index", 2);
  Git(repo, {"update-index", "--index-version", "4"});
  CheckSameAsLibgit2(repo + "/.git/index", 4);
  Git(repo, {"update-index", "--add", "--cacheinfo", "100644," + blob + "," + long_path(4096)});
  CHECK_FALSE(store::git::ReadWorktreeIndex(repo + "/.git/index").has_value());
}

TEST_CASE("index reader declines the paths libgit2 may refuse wherever they fall in a word") {
  // One entry whose 16-byte path is overwritten in place (same length, so the entry's layout
  // holds) by paths whose doubtful part sits at the start, inside, or across the 8-byte words the
  // reader checks at a time.
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  const std::string blob = Trim(Git(repo, {"rev-parse", "HEAD:a.txt"}));
  Git(repo, {"rm", "-q", "--cached", "a.txt", "dir/b.txt"});
  const std::string original = "abcdefgh/ijklmno";
  Git(repo, {"update-index", "--add", "--cacheinfo", "100644," + blob + "," + original});
  const std::string index_path = repo + "/.git/index";
  const std::string bytes = ReadFile(index_path);
  const size_t at = bytes.find(original);
  REQUIRE(at != std::string::npos);
  auto read_with = [&](const std::string& path) {
    REQUIRE(path.size() == original.size());
    std::string edited = bytes;
    edited.replace(at, path.size(), path);
    RechecksumIndex(&edited);
    WriteFile(index_path, edited);
    return store::git::ReadWorktreeIndex(index_path);
  };
  for (const std::string doubtful :
       {".git/fgh/ijklmno", "abcdefg/.git/xyz", "abcdefgh/.GiT/yz", "abcdefg//git/xyz",
        "abcdefgh//ijklmn", "/bcdefgh/ijklmno", "abcdefgh/ijklmn/", "abcdefgh/../xyzw",
        "abcdefgh/./xyzwv", "abcdefgh/git~1/z", "~bcdefgh/ijklmno", "abcdefghijklmno~",
        "abcdefgh/.git./z", "abcdefg/.git xyz", "abcdefgh/ijkl/.."}) {
    INFO(doubtful);
    CHECK_FALSE(read_with(doubtful).has_value());
  }
  for (const std::string fine :
       {"abcdefg/.gitx/yz", "abcdefgh/.a/xyzw", "abc.defg.hij/kl.", "abcdefgh/ijk....",
        ".abcdefg/ijklmno", "abcdefg./.ijklmn", "abcdefgh/x.git/y"}) {
    INFO(fine);
    auto ours = read_with(fine);
    REQUIRE(ours.has_value());
    REQUIRE(ours->entries.size() == 1);
    CHECK(ours->entries[0].path == fine);
    CheckSameAsLibgit2(index_path, 2);
  }
}

TEST_CASE("index reader maps a large index and matches libgit2 on it") {
  // Past MappedFile::kMinBytes (256 KiB): the file is mapped, not copied.
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  const std::string blob = Trim(Git(repo, {"rev-parse", "HEAD:a.txt"}));
  std::string info;
  for (int i = 0; i < 4000; ++i) {
    info += "100644 " + blob + "\tdir" + std::to_string(i % 37) + "/sub/file-" + std::to_string(i) +
            ".txt\n";
  }
  RunResult added = Run({"git", "update-index", "--index-info"}, repo, GitEnv(), info);
  REQUIRE(added.exit_code == 0);
  const std::string index_path = repo + "/.git/index";
  struct stat st;
  REQUIRE(stat(index_path.c_str(), &st) == 0);
  REQUIRE(st.st_size >= 256 * 1024);
  CheckSameAsLibgit2(index_path, 2);
  std::string bytes = ReadFile(index_path);
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 1);
  WriteFile(index_path, bytes);
  CHECK_FALSE(store::git::ReadWorktreeIndex(index_path).has_value());
}

TEST_CASE("index reader declines split and sparse indexes and damaged files") {
  TempDir tmp;
  std::string repo = VariedRepo(tmp.path());
  const std::string path = repo + "/.git/index";

  SECTION("a split index (`link` extension) is left to libgit2") {
    Git(repo, {"update-index", "--split-index"});
    REQUIRE(ReadFile(path).find("link") != std::string::npos);
    CHECK_FALSE(store::git::ReadWorktreeIndex(path).has_value());
  }
  SECTION("a sparse index (`sdir` extension) is left to libgit2") {
    Git(repo, {"config", "index.sparse", "true"});
    Git(repo, {"sparse-checkout", "set", "--cone", "dir/sub"});
    REQUIRE(ReadFile(path).find("sdir") != std::string::npos);
    CHECK_FALSE(store::git::ReadWorktreeIndex(path).has_value());
  }
  SECTION("a wrong trailing checksum") {
    std::string bytes = ReadFile(path);
    bytes.back() = static_cast<char>(bytes.back() ^ 1);
    WriteFile(path, bytes);
    CHECK_FALSE(store::git::ReadWorktreeIndex(path).has_value());
  }
  SECTION("a truncated file") {
    std::string bytes = ReadFile(path);
    WriteFile(path, bytes.substr(0, bytes.size() / 2));
    CHECK_FALSE(store::git::ReadWorktreeIndex(path).has_value());
  }
  SECTION("a missing file is an empty index, as for git_index_open") {
    REQUIRE(unlink(path.c_str()) == 0);
    auto ours = store::git::ReadWorktreeIndex(path);
    REQUIRE(ours.has_value());
    CHECK(ours->entries.empty());
  }
}

}  // namespace gentle::testing
