// The durable steps of a verdict and of a start, call by call: every fsync, fdatasync,
// sync_file_range and rename they make under the git common dir, in order (docs/performance.md,
// "The syncs of a mutation"). Pins that new objects are written in one batch (each file's data
// written out, one fsync, then the renames: store/git/loose_batch.h) before the history ref and
// the record name them, the history ref's own fsync before and after its rename (libgit2 skipped
// both while the ref database had been opened before its fsync option was on), that the ref is
// durable before the record is written, and the count: a change that adds or drops a sync shows
// here.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/strace_kill.h"
#include "tests/support/syscall_fault.h"

namespace gentle::testing {
namespace {

// `path` with the common dir as G, the store root as S, the lineage as L, and the names libgit2
// and the atomic writer make up (temporary objects, fan-out directories, temp files) as patterns.
std::string Normalized(const LifecycleRepo& repo, const std::string& lineage, std::string path) {
  auto replace_all = [&](const std::string& from, const std::string& to) {
    for (size_t at = path.find(from); at != std::string::npos; at = path.find(from, at)) {
      path.replace(at, from.size(), to);
      at += to.size();
    }
  };
  replace_all(repo.store_root(), "S");
  replace_all(repo.common_dir(), "G");
  replace_all(lineage, "L");
  path = std::regex_replace(path, std::regex("tmp_batch_[A-Za-z0-9]{6}$"), "tmp_batch");
  path = std::regex_replace(path, std::regex("objects/[0-9a-f]{2}$"), "objects/xx");
  path = std::regex_replace(path, std::regex("\\.atomic-[A-Za-z0-9]{6}$"), ".atomic-X");
  return path;
}

// Every fan-out directory of the object database made beforehand, so that no batch makes one
// (a batch that does syncs the object directory once more, after its renames).
void MakeFanOutDirectories(const LifecycleRepo& repo) {
  for (int i = 0; i < 256; ++i) {
    char name[3];
    snprintf(name, sizeof name, "%02x", i);
    std::filesystem::create_directories(repo.common_dir() + "/objects/" + name);
  }
}

// The syncs and renames of `calls`, normalized.
std::vector<std::string> Durable(const LifecycleRepo& repo, const std::string& lineage,
                                 const std::vector<StoreCall>& calls) {
  std::vector<std::string> seen;
  for (const StoreCall& call : calls) {
    if (call.syscall == "fsync" || call.syscall == "fdatasync" ||
        call.syscall == "sync_file_range" || call.syscall.rfind("rename", 0) == 0) {
      seen.push_back(call.syscall + " " + Normalized(repo, lineage, call.path));
    }
  }
  return seen;
}

// A batch of `n` new objects (store/git/loose_batch.h): each file's writeback started as it is
// written, then waited for but the last, the last fsynced, then each renamed to its name.
void AppendBatch(int n, std::vector<std::string>* expected) {
  for (int i = 0; i < n; ++i) expected->push_back("sync_file_range G/objects/tmp_batch");
  for (int i = 0; i + 1 < n; ++i) expected->push_back("sync_file_range G/objects/tmp_batch");
  expected->push_back("fsync G/objects/tmp_batch");
  for (int i = 0; i < n; ++i) expected->push_back("rename G/objects/tmp_batch");
}

// The history ref, durable before the record: its lock file, then its directory. A ref that moves
// is renamed from its lock file; a new one is linked to it (libgit2), which is not traced.
enum class Ref { kMoved, kNew };
void AppendRef(Ref ref, std::vector<std::string>* expected) {
  expected->push_back("fsync G/refs/gentle-ai/reviews/L.lock");
  if (ref == Ref::kMoved) expected->push_back("rename G/refs/gentle-ai/reviews/L.lock");
  expected->push_back("fsync G/refs/gentle-ai/reviews");
}

// The record; then the close checkpoint.
void AppendRecordCheckpoint(std::vector<std::string>* expected) {
  const std::vector<std::string> rest = {
      "fsync S/v2/L/.atomic-X",
      "rename S/v2/L/.atomic-X",
      "fsync S/v2/L",
      // The committed row has no sync of its own; the close checkpoint syncs the WAL, then the
      // database.
      "fdatasync S/index.sqlite-wal",
      "fdatasync S/index.sqlite",
  };
  expected->insert(expected->end(), rest.begin(), rest.end());
}

// The prepared row: the WAL's new header, then the transaction. The -wal is kept between processes
// and opened without O_CREAT, so SQLite does not sync its directory (store/index/wal_vfs.h).
const std::vector<std::string> kPreparedRow = {
    "fdatasync S/index.sqlite-wal",
    "fdatasync S/index.sqlite-wal",
};

TEST_CASE("sync order: a verdict makes its history objects and ref durable before its record") {
  REQUIRE(StraceWorks());
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  MakeFanOutDirectories(repo);
  RunResult run;
  const std::vector<StoreCall> calls =
      TraceStoreCalls(repo,
                      {"verdict", "--lineage", lineage, "--verdict", "APPROVE", "--actor", "ana",
                       "--role", "reviewer", "--body", "fine"},
                      repo.common_dir(), &run);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::vector<std::string> expected = kPreparedRow;
  // The history commit's five new objects (record blob, verdict body blob, verdicts/ tree, root
  // tree, commit) in one batch: one fsync for the five.
  AppendBatch(5, &expected);
  AppendRef(Ref::kMoved, &expected);
  AppendRecordCheckpoint(&expected);
  CHECK(Durable(repo, lineage, calls) == expected);
}

TEST_CASE(
    "sync order: a start makes the candidate's new objects durable before anything names them") {
  REQUIRE(StraceWorks());
  LifecycleRepo repo;
  repo.StartNew();  // the store and its index exist
  MakeFanOutDirectories(repo);
  // One new file: the candidate's new objects are its blob and the candidate's root tree.
  repo.Write("traced-start.txt", "a file the traced start captures\n");
  RunResult run;
  const std::vector<StoreCall> calls =
      TraceStoreCalls(repo, {"start", "--untracked", "traced-start.txt"}, repo.common_dir(), &run);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const std::string lineage = nlohmann::json::parse(run.out)["lineage"];
  // The candidate's objects, in one batch, before the index is opened.
  std::vector<std::string> expected;
  AppendBatch(2, &expected);
  expected.insert(expected.end(), kPreparedRow.begin(), kPreparedRow.end());
  // The start commit's new objects (record blob, root tree, commit): the candidate tree is
  // already there.
  AppendBatch(3, &expected);
  AppendRef(Ref::kNew, &expected);
  // The lineage directory, made and synced into v2/ before the record is written in it.
  expected.push_back("fsync S/v2");
  AppendRecordCheckpoint(&expected);
  CHECK(Durable(repo, lineage, calls) == expected);
}

}  // namespace
}  // namespace gentle::testing
