// Huge blobs (docs/lifecycle.md, "Start and revise refuse what could never be exported";
// export/blob_limit.h): a candidate with a side above 512 MiB is refused by start with
// budget_exceeded naming the path, the blob, its size and the limit, from the objects' headers
// alone: nothing under the common dir changes, and the command's own peak memory (GNU time's
// maximum resident set of the command it runs) stays far below the blob's size. A one-byte change
// to a 1 GiB file is tested as git writes it: packed (above core.bigFileThreshold, `git add` writes
// a pack of its own) and loose (the threshold raised). The file is zeros with one byte changed, so
// that git's own work stays seconds and the objects stay small on disk; the refusal does not depend
// on the bytes.
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

constexpr uint64_t kGiB = uint64_t{1} << 30;
// A bound far below one side (1 GiB), and above what a refusal from headers holds.
constexpr long kPeakBoundKiB = 200 * 1000;

struct Measured {
  RunResult run;
  long peak_kib = -1;
};

// `review <args>` under /usr/bin/time (a missing GNU time fails the test): its result and its
// peak resident set in KiB.
Measured MeasuredReview(const LifecycleRepo& repo, const std::vector<std::string>& args,
                        const std::string& scratch) {
  const std::string out = scratch + "/peak.txt";
  Measured m;
  m.run = GentleAi(repo.ReviewArgs(args), repo.root(), {{"GENTLE_LOCK_TIMEOUT_MS", "2000"}},
                   {"/usr/bin/time", "-f", "%M", "-o", out});
  // A command that exits non-zero gets a line before it ("Command exited with non-zero status").
  const std::string text = Trim(ReadFile(out));
  const std::string last =
      text.substr(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);
  REQUIRE_FALSE(last.empty());
  REQUIRE(last.find_first_not_of("0123456789") == std::string::npos);
  m.peak_kib = std::stol(last);
  return m;
}

// `path` as `size` zero bytes (sparse) with the byte at `size / 2` set to `middle`.
void WriteZeros(const std::string& path, uint64_t size, char middle) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  REQUIRE(fd >= 0);
  REQUIRE(::ftruncate(fd, static_cast<off_t>(size)) == 0);
  REQUIRE(::pwrite(fd, &middle, 1, static_cast<off_t>(size / 2)) == 1);
  REQUIRE(::close(fd) == 0);
}

// main holds big.bin of 1 GiB, `pr` the same file with its middle byte changed, both written by
// `git -c core.bigFileThreshold=<threshold> add`; HEAD stays on `pr` and the worktree copy is
// removed (the candidate is the commit range).
void CommitOneByteChange(LifecycleRepo& repo, const std::string& threshold) {
  const std::string file = repo.root() + "/big.bin";
  WriteZeros(file, kGiB, '\0');
  repo.GitOk({"-c", "core.bigFileThreshold=" + threshold, "add", "big.bin"});
  repo.GitOk({"commit", "-q", "-m", "big"});
  repo.GitOk({"checkout", "-q", "-b", "pr"});
  WriteZeros(file, kGiB, 'x');
  repo.GitOk({"-c", "core.bigFileThreshold=" + threshold, "add", "big.bin"});
  repo.GitOk({"commit", "-q", "-m", "one byte"});
  REQUIRE(::unlink(file.c_str()) == 0);
}

size_t PackCount(const LifecycleRepo& repo) {
  RunResult found = Run({"find", repo.common_dir() + "/objects/pack", "-name", "*.pack"});
  REQUIRE(found.exit_code == 0);
  size_t n = 0;
  for (char c : found.out) n += c == '\n';
  return n;
}

// start of main..pr is refused from the headers: exact code, message and details, nothing
// written, the command's peak memory under kPeakBoundKiB.
void ExpectHugeBlobRefused(const LifecycleRepo& repo) {
  TempDir scratch;
  const std::string blob = Trim(repo.GitOk({"rev-parse", "pr:big.bin"}));
  const std::string size = Trim(repo.GitOk({"cat-file", "-s", blob}));
  REQUIRE(size == std::to_string(kGiB));
  const std::vector<std::string> start = {"start",  "--kind", "commit-range", "--base", "main",
                                          "--head", "pr"};
  const auto before = HashTree(repo.common_dir());
  for (int run = 0; run < 2; ++run) {
    const Measured m = MeasuredReview(repo, start, scratch.path());
    const RunResult& r = m.run;
    INFO(r.exit_code << "\n" << r.out << r.err << "peak " << m.peak_kib << " KiB");
    CHECK(r.exit_code == 9);
    const Json error = r.Json()["error"];
    CHECK(error["code"] == "budget_exceeded");
    CHECK(error["message"] ==
          "the blob of big.bin is 1073741824 bytes, over the limit of 536870912 bytes on one "
          "blob; nothing is truncated");
    CHECK(
        error["details"].get<std::map<std::string, std::string>>() ==
        std::map<std::string, std::string>{
            {"path", "big.bin"}, {"object", blob}, {"size", "1073741824"}, {"limit", "536870912"}});
    CHECK(m.peak_kib > 0);
    CHECK(m.peak_kib < kPeakBoundKiB);
    CHECK(HashTree(repo.common_dir()) == before);
  }
  // status names no start for the same candidate and reads no more than start did.
  const Measured status = MeasuredReview(
      repo, {"status", "--kind", "commit-range", "--base", "main", "--head", "pr"}, scratch.path());
  INFO(status.run.out << status.run.err);
  REQUIRE(status.run.exit_code == 0);
  CHECK(status.run.Json()["next"] != "start");
  CHECK(status.peak_kib < kPeakBoundKiB);
  CHECK(HashTree(repo.common_dir()) == before);
}

}  // namespace

TEST_CASE("huge blob: a one-byte change to a 1 GiB file git add packed is refused from headers") {
  LifecycleRepo repo;
  const size_t packs_before = PackCount(repo);
  CommitOneByteChange(repo, "512m");
  REQUIRE(PackCount(repo) == packs_before + 2);  // each side a pack of its own, as git add wrote it
  ExpectHugeBlobRefused(repo);
}

TEST_CASE("huge blob: a one-byte change to a 1 GiB loose file is refused from headers") {
  LifecycleRepo repo;
  const size_t packs_before = PackCount(repo);
  CommitOneByteChange(repo, "2g");
  REQUIRE(PackCount(repo) == packs_before);  // both sides loose
  const std::string blob = Trim(repo.GitOk({"rev-parse", "pr:big.bin"}));
  REQUIRE(Exists(repo.common_dir() + "/objects/" + blob.substr(0, 2) + "/" + blob.substr(2)));
  ExpectHugeBlobRefused(repo);
}

}  // namespace gentle::testing
