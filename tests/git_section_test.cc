// A modified file with a side of 4 GiB or more is written by the pinned git CLI
// (export/git_section.h), byte for byte the section of the tree diff, and refused over the budget
// exactly as in process. The test build's GENTLE_GIT_SECTION_MIN_BYTES (store/test_hooks.h) lowers
// the 4 GiB to 1 MiB so that 2 and 5 MiB binaries (packed, as git packs a large file it adds) reach
// the path in seconds. That git ran, and for which blobs, is read from strace's record of the
// command's execve calls (strace is a prerequisite, scripts/install-deps.sh: its absence fails).
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_oracle.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/strace_kill.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

// `bytes` of noise with a NUL first: binary for git whatever its size.
std::string BinaryNoise(size_t bytes, uint32_t seed) {
  std::mt19937 gen(seed);
  std::string data(bytes, '\0');
  for (size_t i = 1; i < bytes; ++i) data[i] = static_cast<char>(gen() & 0xff);
  return data;
}

// A repository whose committed big.bin (`before`) is packed, with `after` in the worktree and a
// lineage started on that change.
struct PackedEdit {
  LifecycleRepo repo;
  std::string lineage, base_tree, candidate_tree, old_blob, new_blob;

  PackedEdit(const std::string& before, const std::string& after) {
    repo.Write("big.bin", before);
    repo.GitOk({"add", "big.bin"});
    repo.GitOk({"commit", "-q", "-m", "big"});
    repo.GitOk({"repack", "-adq"});
    repo.GitOk({"prune-packed"});
    old_blob = Trim(repo.GitOk({"rev-parse", "HEAD:big.bin"}));
    struct stat st;
    const std::string loose =
        repo.common_dir() + "/objects/" + old_blob.substr(0, 2) + "/" + old_blob.substr(2);
    REQUIRE(stat(loose.c_str(), &st) != 0);  // packed only
    repo.Write("big.bin", after);
    // A candidate over the export budget is taken as an older release took it (the refusal of
    // the export is what is tested).
    RunResult started = repo.Review({"start"}, {{"GENTLE_ADMIT_OVERSIZE", "1"}});
    INFO(started.out << started.err);
    REQUIRE(started.exit_code == 0);
    lineage = started.Json()["lineage"];
    const nlohmann::json snapshot = repo.RecordState(lineage)["initial_snapshot"];
    base_tree = snapshot["base_tree"];
    candidate_tree = snapshot["candidate_tree"];
    new_blob = Trim(repo.GitOk({"rev-parse", candidate_tree + ":big.bin"}));
  }
};

struct Traced {
  RunResult run;
  std::vector<std::string> git_diffs;  // each successful execve of git with `diff` in its arguments
};

// `review <args> --cwd <root>` under `strace -f -e trace=execve`, the threshold at 1 MiB when
// `lowered`.
Traced RunTraced(const LifecycleRepo& repo, const std::vector<std::string>& args, bool lowered) {
  TempDir dir;
  const std::string trace = dir.path() + "/execve";
  Env env = TracedCommandEnv();  // LeakSanitizer cannot run under strace's ptrace
  if (lowered) env["GENTLE_GIT_SECTION_MIN_BYTES"] = std::to_string(kMiB);
  Traced out;
  out.run =
      GentleAi(repo.ReviewArgs(args, /*json=*/false), repo.root(), env,
               {"strace", "-f", "-qq", "-s", "256", "-e", "trace=execve", "-o", trace}, 120000);
  REQUIRE_FALSE(out.run.timed_out);
  REQUIRE(ReadFile(trace).find("execve(") != std::string::npos);  // strace traced the command
  std::istringstream lines(ReadFile(trace));
  std::string line;
  while (std::getline(lines, line)) {
    // A PATH lookup's failed attempts (`= -1 ENOENT`) are not runs.
    if (line.find("execve(") != std::string::npos && line.find("\"git\"") != std::string::npos &&
        line.find("\"diff\"") != std::string::npos && line.find(" = -1 ") == std::string::npos) {
      out.git_diffs.push_back(line);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("git section: a binary side over the threshold is written by git - byte for byte") {
  std::string before = BinaryNoise(2 * kMiB, 7);
  std::string after = before;
  after[1000] = static_cast<char>(after[1000] ^ 1);
  PackedEdit edit(before, after);
  auto oracle = OracleDiff(edit.repo.common_dir(), edit.base_tree, edit.candidate_tree);
  REQUIRE(oracle.ok());
  REQUIRE(oracle->find("GIT binary patch\ndelta ") != std::string::npos);

  Traced lowered = RunTraced(edit.repo, {"export-context", "--lineage", edit.lineage}, true);
  INFO(lowered.run.err);
  CHECK(lowered.run.exit_code == 0);
  CHECK(lowered.run.out == *oracle);
  // git ran once, for the two blobs of the file.
  REQUIRE(lowered.git_diffs.size() == 1);
  CHECK(lowered.git_diffs[0].find("\"" + edit.old_blob + "\", \"" + edit.new_blob + "\"") !=
        std::string::npos);

  // At the release threshold (4 GiB) the same file is written in process: the same bytes, no git.
  Traced in_process = RunTraced(edit.repo, {"export-context", "--lineage", edit.lineage}, false);
  CHECK(in_process.run.exit_code == 0);
  CHECK(in_process.run.out == *oracle);
  CHECK(in_process.git_diffs.empty());
}

TEST_CASE("git section: over the budget git is stopped - the refusal is the in-process one") {
  // 5 MiB replaced by other noise: no delta, a literal of about 6.4 MB, over the 4 MiB budget.
  PackedEdit edit(BinaryNoise(5 * kMiB, 11), BinaryNoise(5 * kMiB, 12));
  Traced lowered =
      RunTraced(edit.repo, {"export-context", "--lineage", edit.lineage, "--json"}, true);
  Traced in_process =
      RunTraced(edit.repo, {"export-context", "--lineage", edit.lineage, "--json"}, false);
  INFO(lowered.run.out << lowered.run.err);
  CHECK(lowered.run.exit_code == 9);
  const nlohmann::json refused = lowered.run.Json();
  CHECK(refused["error"]["code"] == "budget_exceeded");
  CHECK(refused == in_process.run.Json());
  CHECK_FALSE(lowered.git_diffs.empty());
  CHECK(in_process.git_diffs.empty());
}

}  // namespace gentle::testing
