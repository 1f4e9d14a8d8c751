// The index's cache-tree (TREE extension) and the folding it allows (store/git/cache_tree_fold.h):
// the reader must list exactly the directories git holds valid, with git's tree ids; a status
// that folds must name the same candidate tree and paths as git's write-tree and diff-tree, and as
// a start (which never folds) on the same worktree; and the fold must really happen where the
// worktree left a directory as it was, and be undone wherever it did not.
#include "store/git/cache_tree_fold.h"

#include <fcntl.h>
#include <git2.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "store/git/memory_writes.h"
#include "store/git/object_reader.h"
#include "store/git/repository.h"
#include "store/git/tree_builder.h"
#include "store/git/worktree_index.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"
#include "transaction/capture.h"
#include "transaction/workspace_rows.h"

namespace gentle::testing {
namespace {

using store::git::CacheTreeDir;
using store::git::ObjectWrites;

// A repository with nested directories (three levels), files beside subdirectories, names that
// sort around '/' ("a-b", "a/", "a0"), an executable and a symlink, committed: `git commit`
// leaves every directory of the cache-tree valid.
std::string NestedRepo(const std::string& parent) {
  std::string repo = InitRepo(parent);
  WriteFile(repo + "/top/a/one.txt", "one\n");
  WriteFile(repo + "/top/a/two.txt", "two\n");
  WriteFile(repo + "/top/a/deep/three.txt", "three\n");
  WriteFile(repo + "/top/a/deep/four.txt", "four\n");
  WriteFile(repo + "/top/a-b", "dash\n");
  WriteFile(repo + "/top/a0", "zero\n");
  WriteFile(repo + "/top/b/five.txt", "five\n");
  WriteFile(repo + "/top/b/run.sh", "#!/bin/sh\n");
  REQUIRE(chmod((repo + "/top/b/run.sh").c_str(), 0755) == 0);
  REQUIRE(symlink("five.txt", (repo + "/top/b/link").c_str()) == 0);
  WriteFile(repo + "/other/six.txt", "six\n");
  Git(repo, {"add", "-A"});
  Git(repo, {"commit", "-q", "-m", "nested"});
  return repo;
}

std::map<std::string, CacheTreeDir> CacheTreeOf(const std::string& repo) {
  auto index = store::git::ReadWorktreeIndex(repo + "/.git/index");
  REQUIRE(index.has_value());
  std::map<std::string, CacheTreeDir> dirs;
  for (const CacheTreeDir& dir : index->cache_tree) dirs[dir.path] = dir;
  return dirs;
}

size_t LsFilesCount(const std::string& repo, const std::string& dir) {
  const std::string out = Git(repo, {"ls-files", "-z", "--", dir});
  return static_cast<size_t>(std::count(out.begin(), out.end(), '\0'));
}

store::Snapshot Capture(const std::string& repo, ObjectWrites writes,
                        const std::vector<std::string>& untracked = {}, bool staged = false) {
  auto opened = store::git::Repository::Discover(repo);
  REQUIRE(opened.ok());
  transaction::Selector selector;
  selector.untracked = untracked;
  selector.staged = staged;
  // Writing: as start captures, its objects held in memory and then flushed to the database.
  std::unique_ptr<store::git::MemoryWrites> held;
  if (writes == ObjectWrites::kWrite) {
    auto diverted = store::git::MemoryWrites::Divert(opened->raw());
    REQUIRE(diverted.ok());
    held = std::move(*diverted);
  }
  auto snapshot = transaction::CaptureSnapshot(*opened, selector, held.get());
  INFO(snapshot.status().message());
  REQUIRE(snapshot.ok());
  if (held) REQUIRE(held->Flush().ok());
  return *snapshot;
}

// The hashing capture (status's, which folds) against git and against the writing capture
// (start's, which does not fold), on the same worktree.
void CheckCaptureAgainstGit(const std::string& repo, const std::vector<std::string>& untracked) {
  const std::string index_before = ReadFile(repo + "/.git/index");
  const store::Snapshot hashed = Capture(repo, ObjectWrites::kHashOnly, untracked);
  const std::string head_tree = Trim(Git(repo, {"rev-parse", "HEAD^{tree}"}));
  const std::string oracle = OracleWorkspaceTree(repo, untracked);
  CHECK(hashed.base_tree == head_tree);
  CHECK(hashed.candidate_tree == oracle);
  CHECK(hashed.paths == OraclePaths(repo, head_tree, oracle));
  const store::Snapshot written = Capture(repo, ObjectWrites::kWrite, untracked);
  CHECK(written.candidate_tree == hashed.candidate_tree);
  CHECK(written.paths == hashed.paths);
  CHECK(written.identity == hashed.identity);
  CHECK(ReadFile(repo + "/.git/index") == index_before);  // read-only, both of them
}

// The index file's mtime set ten seconds ahead, so that no entry is racily clean: a file written
// in the same clock tick as the index would otherwise be hashed, and its directory could not be
// folded from the probes alone.
void IndexAfterEveryFile(const std::string& repo) {
  struct timespec later[2];
  REQUIRE(clock_gettime(CLOCK_REALTIME, &later[0]) == 0);
  later[0].tv_sec += 10;
  later[1] = later[0];
  REQUIRE(utimensat(AT_FDCWD, (repo + "/.git/index").c_str(), later, 0) == 0);
}

std::vector<std::string> FoldedPaths(const store::git::TreeRows& rows) {
  std::vector<std::string> folded;
  for (const auto& row : rows) {
    if (row.mode == 040000) folded.push_back(row.path);
  }
  return folded;
}

// A repository and its index, as status reads them.
struct Opened {
  store::git::Repository repo;
  transaction::LoadedGitIndex index;
};
Opened OpenWithIndex(const std::string& repo) {
  auto opened = store::git::Repository::Discover(repo);
  REQUIRE(opened.ok());
  auto index = transaction::LoadGitIndex(*opened);
  REQUIRE(index.ok());
  return {std::move(*opened), std::move(*index)};
}

// The candidate's rows as status makes them with `fold`, before Finish.
store::git::TreeRows CandidateRows(Opened& o, const store::git::CacheTreeFold& fold,
                                   const std::vector<std::string>& untracked) {
  auto rows = transaction::WorkspaceRows(o.repo, o.index, transaction::Projection::kWorkspace,
                                         untracked, nullptr, &fold);
  REQUIRE(rows.ok());
  return std::move(*rows);
}

// The candidate's rows as status makes them, folded from the probes (CacheTreeFold::CleanDirs)
// before Finish: the folded directories, in order. No row is made under a fold.
std::vector<std::string> CandidateFoldedDirs(const std::string& repo,
                                             const std::vector<std::string>& untracked = {}) {
  Opened o = OpenWithIndex(repo);
  store::git::CacheTreeFold fold(o.index.entries, o.index.cache_tree);
  const store::git::TreeRows rows = CandidateRows(o, fold, untracked);
  const std::vector<std::string> folded = FoldedPaths(rows);
  for (const store::git::TreeRow& row : rows) {
    if (row.mode == 040000) continue;
    INFO(row.path);
    CHECK_FALSE(std::any_of(folded.begin(), folded.end(), [&](const std::string& d) {
      return row.path.compare(0, d.size(), d) == 0;
    }));
  }
  return folded;
}

// The base's rows as a status folds them, after Finish: the folded directories, in order.
std::vector<std::string> FoldedDirs(const std::string& repo,
                                    const std::vector<std::string>& untracked = {}) {
  Opened o = OpenWithIndex(repo);
  store::git::CacheTreeFold fold(o.index.entries, o.index.cache_tree);
  auto head = store::git::PeelRev(o.repo.raw(), "HEAD", GIT_OBJECT_TREE);
  REQUIRE(head.ok());
  bool canonical = true;
  auto base = store::git::FlattenTree(o.repo.raw(), *head, nullptr, &canonical, &fold);
  REQUIRE(base.ok());
  store::git::TreeRows candidate = CandidateRows(o, fold, untracked);
  auto odb = store::git::RepositoryOdb(o.repo.raw());
  REQUIRE(odb.ok());
  REQUIRE(fold.Finish(odb->get(), o.index.entries, untracked, &*base, &candidate, &canonical).ok());
  const std::vector<std::string> folded = FoldedPaths(*base);
  CHECK(folded == FoldedPaths(candidate));  // both sides fold at the same directories
  // And the folded lists still build the candidate git computes.
  auto built = store::git::HashTree(candidate);
  REQUIRE(built.ok());
  CHECK(store::git::OidHex(*built) == OracleWorkspaceTree(repo, untracked));
  return folded;
}

}  // namespace

TEST_CASE("cache-tree reader lists the directories git holds valid with git's tree ids") {
  TempDir tmp;
  const std::string repo = NestedRepo(tmp.path());
  for (const char* version : {"2", "4"}) {
    INFO("index version " << version);
    Git(repo, {"update-index", "--index-version", version});
    Git(repo, {"write-tree"});  // every directory valid again
    auto dirs = CacheTreeOf(repo);
    const std::vector<std::string> expected = {"",       "dir/",        "other/", "top/",
                                               "top/a/", "top/a/deep/", "top/b/"};
    std::vector<std::string> listed;
    for (const auto& [path, dir] : dirs) listed.push_back(path);
    CHECK(listed == expected);
    for (const auto& [path, dir] : dirs) {
      INFO(path);
      CHECK(store::git::OidHex(dir.id) == Trim(Git(repo, {"rev-parse", "HEAD:" + path})));
      CHECK(dir.entry_count == LsFilesCount(repo, path.empty() ? "." : path));
    }
  }

  // Staging one file invalidates its directory and every one above it, nothing else.
  WriteFile(repo + "/top/a/deep/three.txt", "three, staged\n");
  Git(repo, {"add", "top/a/deep/three.txt"});
  std::vector<std::string> listed;
  for (const auto& [path, dir] : CacheTreeOf(repo)) listed.push_back(path);
  CHECK(listed == std::vector<std::string>{"dir/", "other/", "top/b/"});
}

TEST_CASE("an index with a malformed or doubled cache-tree is left to libgit2") {
  TempDir tmp;
  const std::string repo = NestedRepo(tmp.path());
  Git(repo, {"write-tree"});
  const std::string path = repo + "/.git/index";
  const std::string good = ReadFile(path);
  const size_t tree = good.find("TREE");
  REQUIRE(tree != std::string::npos);

  auto write_edited = [&](std::string bytes) {
    RechecksumIndex(&bytes);
    WriteFile(path, bytes);
  };
  auto libgit2_opens = [&] {
    git_libgit2_init();
    git_index* index = nullptr;
    const bool opened = git_index_open(&index, path.c_str()) == 0;
    git_index_free(index);
    git_libgit2_shutdown();
    return opened;
  };
  // Declined, libgit2 refuses it, and so does start, with `corrupted` (exit 7).
  auto refused_everywhere = [&] {
    CHECK_FALSE(store::git::ReadWorktreeIndex(path).has_value());
    CHECK_FALSE(libgit2_opens());
    RunResult r = GentleAi({"review", "start", "--json"}, repo);
    CHECK(r.exit_code == 7);
    CHECK(nlohmann::json::parse(r.out)["error"]["code"] == "corrupted");
  };
  SECTION("a count that is not a number") {
    std::string bytes = good;
    const size_t digit = bytes.find_first_of("0123456789", tree + 9);  // the root's entry count
    bytes[digit] = 'x';
    write_edited(bytes);
    refused_everywhere();
  }
  SECTION("a subtree count larger than the subtrees given") {
    std::string bytes = good;
    const size_t newline = bytes.find('\n', tree + 9);
    bytes[newline - 1] = '9';  // the root's number of subtrees
    write_edited(bytes);
    refused_everywhere();
  }
  SECTION("the same extension twice is declined") {
    const uint32_t size =
        (uint32_t(uint8_t(good[tree + 4])) << 24) | (uint32_t(uint8_t(good[tree + 5])) << 16) |
        (uint32_t(uint8_t(good[tree + 6])) << 8) | uint32_t(uint8_t(good[tree + 7]));
    std::string bytes = good;
    bytes.insert(tree, good.substr(tree, 8 + size));
    write_edited(bytes);
    CHECK_FALSE(store::git::ReadWorktreeIndex(path).has_value());
  }
  SECTION("the unedited file, rewritten the same way, is read with its cache-tree") {
    write_edited(good);
    auto index = store::git::ReadWorktreeIndex(path);
    REQUIRE(index.has_value());
    CHECK(index->cache_tree.size() == 7);
    CHECK(libgit2_opens());
  }
}

TEST_CASE("status folds the directories the worktree left as they were and unfolds the rest") {
  TempDir tmp;
  const std::string repo = NestedRepo(tmp.path());

  SECTION("a clean worktree folds every top-level directory") {
    CHECK(FoldedDirs(repo) == std::vector<std::string>{"dir/", "other/", "top/"});
  }
  SECTION("an edit deep down unfolds only the directories above it") {
    WriteFile(repo + "/top/a/deep/four.txt", "four, edited\n");
    CHECK(FoldedDirs(repo) == std::vector<std::string>{"dir/", "other/", "top/b/"});
  }
  SECTION("an intended-untracked file unfolds its directory") {
    WriteFile(repo + "/top/b/new.txt", "new\n");
    CHECK(FoldedDirs(repo, {"top/b/new.txt"}) ==
          std::vector<std::string>{"dir/", "other/", "top/a/"});
  }
  SECTION("a file touched but not changed keeps its directory folded") {
    WriteFile(repo + "/other/six.txt", "six\n");  // new stat data, same bytes: hashed, same id
    CHECK(FoldedDirs(repo) == std::vector<std::string>{"dir/", "other/", "top/"});
  }
  SECTION("a directory the index changed is not folded in the base") {
    WriteFile(repo + "/top/a0", "zero, staged\n");
    Git(repo, {"add", "top/a0"});
    Git(repo, {"write-tree"});  // top/ valid again, but no longer HEAD's top/
    CHECK(FoldedDirs(repo) == std::vector<std::string>{"dir/", "other/", "top/a/", "top/b/"});
  }
}

TEST_CASE(
    "status folds the candidate's clean directories from the probes before making their rows") {
  TempDir tmp;
  const std::string repo = NestedRepo(tmp.path());
  IndexAfterEveryFile(repo);

  SECTION("a clean worktree: every top-level directory") {
    CHECK(CandidateFoldedDirs(repo) == std::vector<std::string>{"dir/", "other/", "top/"});
    CHECK(FoldedDirs(repo) == std::vector<std::string>{"dir/", "other/", "top/"});
  }
  SECTION("an edit deep down: the directories beside its path") {
    WriteFile(repo + "/top/a/deep/four.txt", "four, edited\n");
    CHECK(CandidateFoldedDirs(repo) == std::vector<std::string>{"dir/", "other/", "top/b/"});
    CHECK(FoldedDirs(repo) == std::vector<std::string>{"dir/", "other/", "top/b/"});
  }
  SECTION("an intended-untracked file: not its directory") {
    WriteFile(repo + "/top/b/new.txt", "new\n");
    CHECK(CandidateFoldedDirs(repo, {"top/b/new.txt"}) ==
          std::vector<std::string>{"dir/", "other/", "top/a/"});
  }
  SECTION("a file touched but not changed: hashed, so folded only once Finish has compared it") {
    WriteFile(repo + "/other/six.txt", "six\n");
    CHECK(CandidateFoldedDirs(repo) == std::vector<std::string>{"dir/", "top/"});
    CHECK(FoldedDirs(repo) == std::vector<std::string>{"dir/", "other/", "top/"});
  }
  SECTION("a file touched beside clean subdirectories: their folds and its row make the parent") {
    WriteFile(repo + "/top/a0", "zero\n");
    CHECK(CandidateFoldedDirs(repo) ==
          std::vector<std::string>{"dir/", "other/", "top/a/", "top/b/"});
    CHECK(FoldedDirs(repo) == std::vector<std::string>{"dir/", "other/", "top/"});
    CheckCaptureAgainstGit(repo, {});
  }
  SECTION("the index's mode differs from the file's while its stat data matches") {
    Git(repo, {"update-index", "--chmod=+x", "top/a/one.txt"});
    Git(repo, {"write-tree"});  // top/a/ valid again, with the executable one.txt
    IndexAfterEveryFile(repo);
    CHECK(CandidateFoldedDirs(repo) ==
          std::vector<std::string>{"dir/", "other/", "top/a/deep/", "top/b/"});
    CheckCaptureAgainstGit(repo, {});
  }
  SECTION("the candidate folds a directory the base does not share, above two base folds") {
    WriteFile(repo + "/top/a0", "zero, staged\n");
    Git(repo, {"add", "top/a0"});
    Git(repo, {"write-tree"});  // top/ valid again, but no longer HEAD's top/
    IndexAfterEveryFile(repo);
    CHECK(CandidateFoldedDirs(repo) == std::vector<std::string>{"dir/", "other/", "top/"});
    CHECK(FoldedDirs(repo) == std::vector<std::string>{"dir/", "other/", "top/a/", "top/b/"});
    CheckCaptureAgainstGit(repo, {});
  }
  SECTION("every entry racy: nothing is folded before Finish") {
    struct timespec old[2] = {{1000000000, 0}, {1000000000, 0}};
    REQUIRE(utimensat(AT_FDCWD, (repo + "/.git/index").c_str(), old, 0) == 0);
    CHECK(CandidateFoldedDirs(repo).empty());
    CHECK(FoldedDirs(repo) == std::vector<std::string>{"dir/", "other/", "top/"});
  }
}

TEST_CASE("status with a valid cache-tree names the candidate tree git writes") {
  TempDir tmp;
  const std::string repo = NestedRepo(tmp.path());
  REQUIRE(CacheTreeOf(repo).size() == 7);  // the commit left every directory valid

  SECTION("clean") { CheckCaptureAgainstGit(repo, {}); }
  SECTION("an edit under a folded directory") {
    WriteFile(repo + "/top/a/deep/three.txt", "three, edited\n");
    CheckCaptureAgainstGit(repo, {});
  }
  SECTION("an executable bit dropped") {
    REQUIRE(chmod((repo + "/top/b/run.sh").c_str(), 0644) == 0);
    CheckCaptureAgainstGit(repo, {});
  }
  SECTION("a deleted file") {
    REQUIRE(unlink((repo + "/top/a/one.txt").c_str()) == 0);
    CheckCaptureAgainstGit(repo, {});
  }
  SECTION("a file moved to an intended-untracked name with the same bytes") {
    // As many rows under top/a/ as index entries, with the same ids in the same order: only the
    // paths differ.
    REQUIRE(rename((repo + "/top/a/two.txt").c_str(), (repo + "/top/a/twp.txt").c_str()) == 0);
    CheckCaptureAgainstGit(repo, {"top/a/twp.txt"});
  }
  SECTION("a symlink retargeted") {
    REQUIRE(unlink((repo + "/top/b/link").c_str()) == 0);
    REQUIRE(symlink("run.sh", (repo + "/top/b/link").c_str()) == 0);
    CheckCaptureAgainstGit(repo, {});
  }
  SECTION("an intent-to-add file") {
    WriteFile(repo + "/other/later.txt", "later\n");
    Git(repo, {"add", "-N", "other/later.txt"});
    Git(repo, {"write-tree"});
    CheckCaptureAgainstGit(repo, {});
  }
  SECTION("every entry racy: the index file older than the files") {
    WriteFile(repo + "/top/b/five.txt", "FIVE\n");  // same size as before
    struct timespec old[2] = {{1000000000, 0}, {1000000000, 0}};
    REQUIRE(utimensat(AT_FDCWD, (repo + "/.git/index").c_str(), old, 0) == 0);
    CheckCaptureAgainstGit(repo, {});
  }
  SECTION("core.filemode off and an executable bit added") {
    Git(repo, {"config", "core.filemode", "false"});
    REQUIRE(chmod((repo + "/other/six.txt").c_str(), 0755) == 0);
    CheckCaptureAgainstGit(repo, {});
  }
  SECTION("an index whose cache-tree the fold must not trust for a changed directory") {
    // The index names a new blob for top/a0 while top/ stays valid (write-tree); the worktree
    // then puts HEAD's bytes back: top/ in the worktree equals HEAD's again, the cache-tree's
    // id for it does not.
    WriteFile(repo + "/top/a0", "zero, staged\n");
    Git(repo, {"add", "top/a0"});
    Git(repo, {"write-tree"});
    WriteFile(repo + "/top/a0", "zero\n");
    CheckCaptureAgainstGit(repo, {});
  }
}

// The index of `repo` with the stage-0 entry of `path` made a conflict (stages 1, 2 and 3 of the
// same blob) while its cache-tree still calls every directory above it valid, each count grown
// by the two entries added: what git never writes (it invalidates those directories), so that a
// fold cannot take a conflict for the tree's own entries.
void ConflictUnderValidCacheTree(const std::string& repo, const std::string& path) {
  const std::string index_path = repo + "/.git/index";
  const std::string bytes = ReadFile(index_path);
  REQUIRE(bytes.compare(0, 4, "DIRC") == 0);
  REQUIRE(static_cast<unsigned char>(bytes[7]) == 2);  // version 2: fixed 62 bytes, padded path
  auto be32 = [&](size_t at) {
    return (uint32_t{static_cast<unsigned char>(bytes[at])} << 24) |
           (uint32_t{static_cast<unsigned char>(bytes[at + 1])} << 16) |
           (uint32_t{static_cast<unsigned char>(bytes[at + 2])} << 8) |
           uint32_t{static_cast<unsigned char>(bytes[at + 3])};
  };
  const uint32_t count = be32(8);
  std::string entries_out;
  size_t at = 12;
  for (uint32_t i = 0; i < count; ++i) {
    const size_t name = at + 62;
    const size_t length = bytes.find('\0', name) - name;
    const size_t size = (62 + length + 8) & ~size_t{7};
    std::string entry = bytes.substr(at, size);
    if (bytes.compare(name, length, path) == 0 && length == path.size()) {
      for (int stage = 1; stage <= 3; ++stage) {
        entry[60] = static_cast<char>((entry[60] & 0xcf) | (stage << 4));
        entries_out += entry;
      }
    } else {
      entries_out += entry;
    }
    at += size;
  }
  REQUIRE(bytes.compare(at, 4, "TREE") == 0);
  const size_t tree_size = be32(at + 4);
  const std::string tree = bytes.substr(at + 8, tree_size);
  const std::string rest = bytes.substr(at + 8 + tree_size, bytes.size() - 20 - at - 8 - tree_size);
  // Each cache-tree entry: "<name>\0<count> <subtrees>\n" and a 20-byte id when valid.
  std::string tree_out;
  std::vector<std::pair<std::string, long>> open;  // directory, subtrees still to come
  for (size_t p = 0; p < tree.size();) {
    const size_t nul = tree.find('\0', p);
    const std::string component = tree.substr(p, nul - p);
    const size_t space = tree.find(' ', nul);
    const size_t newline = tree.find('\n', space);
    long entry_count = std::stol(tree.substr(nul + 1, space - nul - 1));
    const long subtrees = std::stol(tree.substr(space + 1, newline - space - 1));
    const std::string dir = open.empty() ? "" : open.back().first + component + "/";
    if (!open.empty()) --open.back().second;
    if (entry_count >= 0 && path.compare(0, dir.size(), dir) == 0) entry_count += 2;
    tree_out +=
        component + '\0' + std::to_string(entry_count) + ' ' + std::to_string(subtrees) + '\n';
    p = newline + 1;
    if (entry_count >= 0) {
      tree_out += tree.substr(p, 20);
      p += 20;
    }
    open.emplace_back(dir, subtrees);
    while (!open.empty() && open.back().second == 0) open.pop_back();
  }
  std::string header = bytes.substr(0, 12);
  const uint32_t new_count = count + 2;
  for (int k = 0; k < 4; ++k) header[8 + k] = static_cast<char>(new_count >> (24 - 8 * k));
  std::string tree_header = "TREE0000";
  for (int k = 0; k < 4; ++k) {
    tree_header[4 + k] = static_cast<char>(tree_out.size() >> (24 - 8 * k));
  }
  std::string out = header + entries_out + tree_header + tree_out + rest + std::string(20, '\0');
  RechecksumIndex(&out);
  WriteFile(index_path, out);
}

TEST_CASE("a conflict under a directory its cache-tree calls valid is not taken for its entries") {
  TempDir tmp;
  const std::string repo = NestedRepo(tmp.path());
  WriteFile(repo + "/top/a/deep/four.txt", "four, edited\n");  // top/ unfolds in both sides
  ConflictUnderValidCacheTree(repo, "top/a/one.txt");
  REQUIRE(CacheTreeOf(repo).at("top/a/").entry_count == 6);
  const store::Snapshot hashed = Capture(repo, ObjectWrites::kHashOnly);
  const store::Snapshot written = Capture(repo, ObjectWrites::kWrite);  // never folds
  CHECK(hashed.paths == std::vector<std::string>{"top/a/deep/four.txt"});
  CHECK(hashed.paths == written.paths);
  CHECK(hashed.candidate_tree == written.candidate_tree);
  CHECK(hashed.identity == written.identity);
}

TEST_CASE("status of a staged selector folds and names the tree git write-tree writes") {
  TempDir tmp;
  const std::string repo = NestedRepo(tmp.path());
  WriteFile(repo + "/top/a/deep/four.txt", "four, staged\n");
  WriteFile(repo + "/other/six.txt", "six, not staged\n");
  Git(repo, {"add", "top/a/deep/four.txt"});
  const store::Snapshot hashed = Capture(repo, ObjectWrites::kHashOnly, {}, true);
  const store::Snapshot written = Capture(repo, ObjectWrites::kWrite, {}, true);
  const std::string index_tree = Trim(Git(repo, {"write-tree"}));  // the cache-tree valid again
  CHECK(hashed.candidate_tree == index_tree);
  CHECK(hashed.paths == std::vector<std::string>{"top/a/deep/four.txt"});
  CHECK(written.identity == hashed.identity);
  CHECK(Capture(repo, ObjectWrites::kHashOnly, {}, true).identity == hashed.identity);
}

TEST_CASE("status on a large index folds on the helper thread and agrees with git") {
  // Past kParallelBaseMinIndexBytes, so HEAD's rows are read on the helper thread with the fold.
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  for (int d = 0; d < 40; ++d) {
    for (int f = 0; f < 100; ++f) {
      WriteFile(repo + "/d" + std::to_string(d) + "/sub/file-" + std::to_string(f) + ".txt",
                "file " + std::to_string(d * 100 + f) + "\n");
    }
  }
  Git(repo, {"add", "-A"});
  Git(repo, {"commit", "-q", "-m", "many"});
  struct stat st;
  REQUIRE(stat((repo + "/.git/index").c_str(), &st) == 0);
  REQUIRE(st.st_size >= transaction::kParallelBaseMinIndexBytes);
  WriteFile(repo + "/d7/sub/file-3.txt", "edited\n");
  REQUIRE(unlink((repo + "/d31/sub/file-99.txt").c_str()) == 0);
  CheckCaptureAgainstGit(repo, {});
  const std::vector<std::string> folded = FoldedDirs(repo);
  CHECK(folded.size() == 39);  // of d0/ to d39/ and dir/, all but d7/ and d31/
  CHECK(std::find(folded.begin(), folded.end(), "d7/") == folded.end());
  CHECK(std::find(folded.begin(), folded.end(), "d31/") == folded.end());
}

TEST_CASE(
    "status --lineage with a valid cache-tree is current until an edit and again after its undo") {
  TempDir tmp;
  const std::string repo = NestedRepo(tmp.path());
  WriteFile(repo + "/top/a/deep/three.txt", "three, reviewed\n");
  RunResult start = GentleAi({"review", "start", "--json"}, repo);
  REQUIRE(start.exit_code == 0);
  const std::string lineage = nlohmann::json::parse(start.out)["lineage"];
  auto status = [&] {
    RunResult r = GentleAi({"review", "status", "--lineage", lineage, "--json"}, repo);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out);
  };
  Git(repo, {"write-tree"});  // the cache-tree valid wherever the index is HEAD's
  REQUIRE(CacheTreeOf(repo).count("top/b/") == 1);
  CHECK(status()["lineages"][0]["applicability"] == "current_target");
  WriteFile(repo + "/top/b/five.txt", "five, after the review\n");
  CHECK(status()["lineages"][0]["applicability"] == "unrelated");
  WriteFile(repo + "/top/b/five.txt", "five\n");
  CHECK(status()["lineages"][0]["applicability"] == "current_target");
}

}  // namespace gentle::testing
