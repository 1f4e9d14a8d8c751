// The durable steps of a verdict, call by call: every fsync, fdatasync and rename it makes under
// the git common dir, in order (docs/performance.md, "The syncs of a mutation"). Pins
// the history ref's own fsync before and after its rename (libgit2 skipped both while the ref
// database had been opened before its fsync option was on), that the ref is durable before the
// record is written, and the count: a change that adds or drops a sync shows here.
#include <catch2/catch.hpp>
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
  path = std::regex_replace(path, std::regex("tmp_object_git2_[0-9a-f]+$"), "tmp_object");
  path = std::regex_replace(path, std::regex("objects/[0-9a-f]{2}$"), "objects/xx");
  path = std::regex_replace(path, std::regex("\\.atomic-[A-Za-z0-9]{6}$"), ".atomic-X");
  return path;
}

TEST_CASE("sync order: a verdict makes its history objects and ref durable before its record") {
  REQUIRE(StraceWorks());
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  RunResult run;
  const std::vector<StoreCall> calls =
      TraceStoreCalls(repo,
                      {"verdict", "--lineage", lineage, "--verdict", "APPROVE", "--actor", "ana",
                       "--role", "reviewer", "--body", "fine"},
                      repo.common_dir(), &run);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::vector<std::string> seen;
  for (const StoreCall& call : calls) {
    if (call.syscall == "fsync" || call.syscall == "fdatasync" ||
        call.syscall.rfind("rename", 0) == 0) {
      seen.push_back(call.syscall + " " + Normalized(repo, lineage, call.path));
    }
  }
  const std::vector<std::string> object = {"fsync G/objects/tmp_object", "fsync G/objects/xx"};
  std::vector<std::string> expected = {
      // The prepared row: the WAL's new header, the directory of a WAL opened with O_CREAT (once
      // per process), the transaction.
      "fdatasync S/index.sqlite-wal",
      "fdatasync S",
      "fdatasync S/index.sqlite-wal",
  };
  // The history commit's five new objects: record blob, verdict blob, verdicts/ tree, root tree,
  // commit; each file, then its fan-out directory.
  for (int i = 0; i < 5; ++i) expected.insert(expected.end(), object.begin(), object.end());
  const std::vector<std::string> rest = {
      // The history ref, durable before the record.
      "fsync G/refs/gentle-ai/reviews/L.lock",
      "rename G/refs/gentle-ai/reviews/L.lock",
      "fsync G/refs/gentle-ai/reviews",
      // The record.
      "fsync S/v2/L/.atomic-X",
      "rename S/v2/L/.atomic-X",
      "fsync S/v2/L",
      // The committed row has no sync of its own; the close checkpoint syncs the WAL, then the
      // database.
      "fdatasync S/index.sqlite-wal",
      "fdatasync S/index.sqlite",
  };
  expected.insert(expected.end(), rest.begin(), rest.end());
  CHECK(seen == expected);
}

}  // namespace
}  // namespace gentle::testing
