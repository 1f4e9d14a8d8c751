// store::git::ProbeWorktree (the lstat of every index entry, on several threads for a large
// index) against a serial ProbePath of each entry, on a real repository with modified, deleted,
// replaced, re-moded, intent-to-add and racily clean entries; then `review start` and `review
// status` on an index large enough for the parallel probe and for status's helper thread (HEAD's
// trees read meanwhile), with git's own `add -u` and `write-tree` of a scratch index as the
// oracle, a stale but stat-clean entry included.
#include "store/git/worktree_probe.h"

#include <fcntl.h>
#include <git2.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <ctime>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "store/git/worktree_index.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"
#include "transaction/capture.h"

namespace gentle::testing {
namespace {

using store::git::DiskProbe;

void SetMtime(const std::string& path, time_t when) {
  const struct timespec times[2] = {{when, 0}, {when, 0}};
  REQUIRE(utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW) == 0);
}

std::string FileName(int i) {
  return "d" + std::to_string(i % 40) + "/f" + std::to_string(i) + ".txt";
}

// `count` committed files, every one (and so every index entry) with mtime `when`, long before
// the index was written: none is racily clean.
std::string ManyFilesRepo(const std::string& parent, int count, time_t when) {
  std::string repo = InitRepo(parent);
  for (int i = 0; i < count; ++i) {
    const std::string path = repo + "/" + FileName(i);
    WriteFile(path, "file " + std::to_string(i) + "\n");
    SetMtime(path, when);
  }
  SetMtime(repo + "/a.txt", when);
  SetMtime(repo + "/dir/b.txt", when);
  Git(repo, {"add", "-A"});
  Git(repo, {"commit", "-q", "-m", "many"});
  return repo;
}

bool SameProbe(const DiskProbe& a, const DiskProbe& b) {
  return a.kind == b.kind && a.executable == b.executable && a.stat_matches == b.stat_matches;
}

}  // namespace

TEST_CASE("worktree probes on one two and four threads match a serial lstat of every entry") {
  TempDir tmp;
  const time_t old = time(nullptr) - 1000;
  const std::string repo = ManyFilesRepo(tmp.path(), 3000, old);
  // Entries changed in every way a probe can see.
  WriteFile(repo + "/" + FileName(1), "file X\n");  // same size, new mtime and ctime
  REQUIRE(unlink((repo + "/" + FileName(2)).c_str()) == 0);
  REQUIRE(unlink((repo + "/" + FileName(3)).c_str()) == 0);
  REQUIRE(mkdir((repo + "/" + FileName(3)).c_str(), 0755) == 0);
  REQUIRE(unlink((repo + "/" + FileName(4)).c_str()) == 0);
  REQUIRE(symlink("f5.txt", (repo + "/" + FileName(4)).c_str()) == 0);
  REQUIRE(chmod((repo + "/" + FileName(6)).c_str(), 0755) == 0);
  REQUIRE(unlink((repo + "/" + FileName(7)).c_str()) == 0);
  REQUIRE(mkfifo((repo + "/" + FileName(7)).c_str(), 0644) == 0);
  WriteFile(repo + "/new.txt", "intent to add\n");
  Git(repo, {"add", "-N", "new.txt"});
  // Directories changed under their entries: d11 moved to alt11 and a link to it in its place
  // (its entries are found through the link, as an lstat of their paths finds them), d13 a
  // regular file, d14 gone.
  REQUIRE(rename((repo + "/d11").c_str(), (repo + "/alt11").c_str()) == 0);
  REQUIRE(symlink("alt11", (repo + "/d11").c_str()) == 0);
  REQUIRE(system(("rm -rf '" + repo + "/d13' '" + repo + "/d14'").c_str()) == 0);
  WriteFile(repo + "/d13", "not a directory\n");

  std::optional<store::git::WorktreeIndex> index =
      store::git::ReadWorktreeIndex(repo + "/.git/index");
  REQUIRE(index.has_value());
  const std::vector<store::git::WorktreeIndexEntry>& entries = index->entries;
  REQUIRE(entries.size() == 3003);
  std::vector<char> wanted(entries.size(), 1);
  wanted[10] = 0;  // an entry not asked for is never stat'ed: a default probe
  // Index "written" one second after the files: every untouched entry is clean. A second run
  // with the index at the files' own second makes every untouched entry racily clean.
  for (const time_t index_time : {old + 1, old}) {
    const std::optional<struct timespec> index_mtime = timespec{index_time, 0};
    std::vector<DiskProbe> serial(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) {
      if (wanted[i]) {
        serial[i] = store::git::ProbePath(repo + "/" + std::string(entries[i].path), &entries[i],
                                          index_mtime);
      }
    }
    for (const unsigned threads : {1u, 2u, 4u, 0u}) {
      INFO("threads " << threads << ", index mtime " << index_time - old);
      std::vector<DiskProbe> probes =
          store::git::ProbeWorktree(repo, entries, wanted, index_mtime, threads);
      REQUIRE(probes.size() == entries.size());
      for (size_t i = 0; i < entries.size(); ++i) {
        INFO(entries[i].path);
        CHECK(SameProbe(probes[i], serial[i]));
      }
    }
    std::map<std::string, DiskProbe> by_path;
    for (size_t i = 0; i < entries.size(); ++i) by_path[std::string(entries[i].path)] = serial[i];
    const bool clean_allowed = index_time > old;
    CHECK(by_path["a.txt"].kind == DiskProbe::Kind::kRegular);
    CHECK(by_path["a.txt"].stat_matches == clean_allowed);
    CHECK(by_path[FileName(5)].stat_matches == clean_allowed);
    CHECK_FALSE(by_path[FileName(5)].executable);
    CHECK(by_path[FileName(1)].kind == DiskProbe::Kind::kRegular);
    CHECK_FALSE(by_path[FileName(1)].stat_matches);
    CHECK(by_path[FileName(2)].kind == DiskProbe::Kind::kAbsent);
    CHECK(by_path[FileName(3)].kind == DiskProbe::Kind::kAbsent);  // a directory now
    CHECK(by_path[FileName(4)].kind == DiskProbe::Kind::kSymlink);
    CHECK_FALSE(by_path[FileName(4)].stat_matches);
    CHECK(by_path[FileName(6)].kind == DiskProbe::Kind::kRegular);
    CHECK(by_path[FileName(6)].executable);
    CHECK_FALSE(by_path[FileName(6)].stat_matches);  // chmod changed its ctime
    CHECK(by_path[FileName(7)].kind == DiskProbe::Kind::kOther);
    CHECK(by_path["new.txt"].kind == DiskProbe::Kind::kRegular);
    CHECK_FALSE(by_path["new.txt"].stat_matches);  // intent-to-add: never reused
    CHECK(SameProbe(serial[10], DiskProbe{}));
    CHECK(by_path[FileName(11)].kind == DiskProbe::Kind::kRegular);  // alt11/f11.txt
    CHECK(by_path[FileName(11)].stat_matches == clean_allowed);      // the same inode
    CHECK(by_path[FileName(13)].kind == DiskProbe::Kind::kAbsent);   // under a regular file
    CHECK(by_path[FileName(14)].kind == DiskProbe::Kind::kAbsent);   // under nothing
  }
  // Without an index mtime every entry is treated as racy.
  const std::vector<DiskProbe> no_time =
      store::git::ProbeWorktree(repo, entries, wanted, std::nullopt, 2);
  for (const DiskProbe& p : no_time) CHECK_FALSE(p.stat_matches);
}

namespace {

// Makes the index entry of `path` claim the file's current stat data while keeping its old
// object id, as an index written by a tool that saw the earlier content in the same instant.
void StaleButStatClean(const std::string& repo, const std::string& path) {
  git_libgit2_init();
  git_index* index = nullptr;
  REQUIRE(git_index_open(&index, (repo + "/.git/index").c_str()) == 0);
  const git_index_entry* found = git_index_get_bypath(index, path.c_str(), 0);
  REQUIRE(found != nullptr);
  git_index_entry e = *found;
  struct stat st;
  REQUIRE(lstat((repo + "/" + path).c_str(), &st) == 0);
  e.ctime.seconds = static_cast<int32_t>(st.st_ctim.tv_sec);
  e.ctime.nanoseconds = static_cast<uint32_t>(st.st_ctim.tv_nsec);
  e.mtime.seconds = static_cast<int32_t>(st.st_mtim.tv_sec);
  e.mtime.nanoseconds = static_cast<uint32_t>(st.st_mtim.tv_nsec);
  e.ino = static_cast<uint32_t>(st.st_ino);
  e.dev = static_cast<uint32_t>(st.st_dev);
  e.file_size = static_cast<uint32_t>(st.st_size);
  REQUIRE(git_index_add(index, &e) == 0);
  REQUIRE(git_index_write(index) == 0);
  git_index_free(index);
  git_libgit2_shutdown();
}

// git's candidate for the workspace: `add -u` and `write-tree` on a copy of the index that keeps
// the index file's mtime (the racy-git reference point).
std::string OracleTree(const std::string& repo, const std::string& scratch) {
  const std::string index = scratch + "/index";
  WriteFile(index, ReadFile(repo + "/.git/index"));
  struct stat st;
  REQUIRE(stat((repo + "/.git/index").c_str(), &st) == 0);
  const struct timespec times[2] = {st.st_atim, st.st_mtim};
  REQUIRE(utimensat(AT_FDCWD, index.c_str(), times, 0) == 0);
  std::map<std::string, std::string> env = {{"GIT_INDEX_FILE", index}};
  REQUIRE(GitRun(repo, {"add", "-u"}, env).exit_code == 0);
  return Trim(GitRun(repo, {"write-tree"}, env).out);
}

}  // namespace

TEST_CASE("start and status on a large index capture what git would with racily clean entries") {
  TempDir tmp;
  const time_t old = time(nullptr) - 1000;
  // Far above two threads' worth of entries (start and status probe the worktree in parallel),
  // and an index large enough for status to read HEAD's trees on its helper thread.
  const std::string repo = ManyFilesRepo(tmp.path(), 4000, old);
  struct stat index_st;
  REQUIRE(stat((repo + "/.git/index").c_str(), &index_st) == 0);
  REQUIRE(index_st.st_size >= transaction::kParallelBaseMinIndexBytes);
  WriteFile(repo + "/" + FileName(1), "file X\n");
  REQUIRE(unlink((repo + "/" + FileName(2)).c_str()) == 0);
  REQUIRE(unlink((repo + "/" + FileName(3)).c_str()) == 0);
  REQUIRE(mkdir((repo + "/" + FileName(3)).c_str(), 0755) == 0);
  REQUIRE(unlink((repo + "/" + FileName(4)).c_str()) == 0);
  REQUIRE(symlink("f5.txt", (repo + "/" + FileName(4)).c_str()) == 0);
  REQUIRE(chmod((repo + "/" + FileName(6)).c_str(), 0755) == 0);
  // Two entries whose content changed while their stat data still matches the index: f8 at a
  // second older than the index file (git and gentle-ai trust it and keep the old id), f9 in the
  // index file's own second (racily clean: both must hash the file again).
  const time_t racy_second = old + 500;
  WriteFile(repo + "/" + FileName(8), "file Y\n");
  SetMtime(repo + "/" + FileName(8), old + 100);
  WriteFile(repo + "/" + FileName(9), "file Z\n");
  SetMtime(repo + "/" + FileName(9), racy_second);
  StaleButStatClean(repo, FileName(8));
  StaleButStatClean(repo, FileName(9));
  SetMtime(repo + "/.git/index", racy_second);

  TempDir scratch;
  const std::string oracle = OracleTree(repo, scratch.path());
  // The oracle's own view of the two stale entries: f8's old content kept, f9 re-hashed.
  CHECK(Trim(Git(repo, {"rev-parse", oracle + ":" + FileName(8)})) ==
        Trim(Git(repo, {"rev-parse", "HEAD:" + FileName(8)})));
  CHECK(Trim(Git(repo, {"rev-parse", oracle + ":" + FileName(9)})) ==
        Trim(Git(repo, {"hash-object", FileName(9)})));

  RunResult started = GentleAi({"review", "start", "--json"}, repo);
  INFO("stdout: " << started.out << "\nstderr: " << started.err);
  REQUIRE(started.exit_code == 0);
  const std::string lineage = nlohmann::json::parse(started.out)["lineage"];
  const std::string pin = "refs/gentle-ai/reviews/" + lineage;
  CHECK(Trim(Git(repo, {"rev-parse", pin + ":candidate"})) == oracle);
  CHECK(Trim(Git(repo, {"diff-tree", "-r", "--name-status", "--no-renames", pin + ":base",
                        pin + ":candidate"})) == "M\t" + FileName(1) + "\nD\t" + FileName(2) +
                                                     "\nD\t" + FileName(3) + "\nT\t" + FileName(4) +
                                                     "\nM\t" + FileName(6) + "\nM\t" + FileName(9));

  // status computes the same live target (hash only) and finds the lineage current.
  RunResult status = GentleAi({"review", "status", "--lineage", lineage, "--json"}, repo);
  INFO("status: " << status.out << "\n" << status.err);
  REQUIRE(status.exit_code == 0);
  const nlohmann::json s = nlohmann::json::parse(status.out);
  REQUIRE(s["lineages"].size() == 1);
  CHECK(s["lineages"][0]["applicability"] == "current_target");
}

}  // namespace gentle::testing
