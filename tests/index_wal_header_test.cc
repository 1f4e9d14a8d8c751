// A -wal that a read-only connection cannot use at once (docs/index.md, "What a read-only open
// does"): a WAL header with no frame after it, left by a writer killed between the two writes, or
// a -wal that does not start with a WAL header. With no writer beside it, SQLite's read-only
// connection retries for about ten seconds and then fails with SQLITE_PROTOCOL. Readers must
// answer from the files at once, fsck must report a finding (not `internal`), and the next writer
// recovers the index.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <string>

#include "tests/support/files.h"
#include "tests/support/hostile.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/strace_kill.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

// Far below SQLite's ~10 s of retries, far above a read on a loaded machine.
constexpr double kAtOnceSeconds = 4.0;

// Every reader answers as `answers` says, each within kAtOnceSeconds.
void ExpectReadersAtOnce(const LifecycleRepo& repo, const Answers& answers) {
  std::vector<std::vector<std::string>> reads = {{"list"}, {"status"}};
  for (const auto& [lineage, exit_code] : answers) {
    reads.push_back({"status", "--lineage", lineage});
    reads.push_back({"export-context", "--lineage", lineage});
  }
  for (const auto& args : reads) {
    const auto start = std::chrono::steady_clock::now();
    RunResult run = repo.Review(args);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(args[0] << (args.size() > 2 ? " " + args[2] : "") << ": exit " << run.exit_code << " in "
                 << seconds << " s\n"
                 << run.err);
    CHECK(seconds < kAtOnceSeconds);
    CHECK(run.err.find("locking protocol") == std::string::npos);
  }
  ExpectAnswers(repo, answers);
}

// fsck exits 7 (not 1) with `code` among its findings.
void ExpectFsckFinding(const LifecycleRepo& repo, const std::string& code) {
  const auto start = std::chrono::steady_clock::now();
  RunResult fsck = repo.Review({"fsck"});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO("fsck: exit " << fsck.exit_code << " in " << seconds << " s: " << fsck.out << fsck.err);
  CHECK(seconds < kAtOnceSeconds);
  REQUIRE(fsck.exit_code == 7);
  const Json report = fsck.Json();  // kept alive while its findings are iterated
  bool found = false;
  for (const auto& finding : report["findings"]) found |= finding["code"] == code;
  CHECK(found);
}

long FileSize(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0 ? static_cast<long>(st.st_size) : -1;
}

TEST_CASE("index wal: a writer killed right after writing a WAL header stalls no reader") {
  REQUIRE(StraceWorks());
  LifecycleRepo repo;
  const Answers answers = StartThreeKinds(repo);
  const std::string wal = repo.store_root() + "/index.sqlite-wal";
  REQUIRE(FileSize(wal) == 0);  // every writer leaves it checkpointed and truncated
  // The reproduction: SQLite's first pwrite to the -wal writes its header, the second
  // the first frame; the writer dies at the second.
  repo.Write("fresh.txt", "fresh\n");
  RunResult killed =
      ReviewKilledAt(repo, {"start", "--untracked", "fresh.txt"}, wal, "pwrite64", 2);
  INFO(killed.out << killed.err);
  REQUIRE(killed.exit_code == kKilledExit);
  REQUIRE(FileSize(wal) == 32);

  ExpectReadersAtOnce(repo, answers);
  ExpectFsckFinding(repo, "index_interrupted");

  // The next writer recovers the index; then everything agrees again.
  repo.StartNew();
  CHECK(FileSize(wal) == 0);
  RunResult fsck = repo.Review({"fsck"});
  INFO(fsck.out << fsck.err);
  CHECK(fsck.exit_code == 0);
  ExpectAnswers(repo, answers);
}

TEST_CASE("index wal: a -wal that does not start with a WAL header stalls no reader") {
  LifecycleRepo repo;
  const Answers answers = StartThreeKinds(repo);
  const std::string wal = repo.store_root() + "/index.sqlite-wal";
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage.push_back(static_cast<char>(1 + (i * 7919) % 251));
  WriteFile(wal, garbage);

  ExpectReadersAtOnce(repo, answers);
  RunResult status = repo.Review({"status", "--lineage", answers.front().first});
  CHECK(status.err.find("does not start with a WAL header") != std::string::npos);
  ExpectFsckFinding(repo, "index_corrupted");

  repo.StartNew();
  RunResult fsck = repo.Review({"fsck"});
  INFO(fsck.out << fsck.err);
  CHECK(fsck.exit_code == 0);
  ExpectAnswers(repo, answers);
}

}  // namespace
}  // namespace gentle::testing
