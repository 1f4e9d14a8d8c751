// The export budget before every write (docs/loop.md, "Following next";
// docs/lifecycle.md, "Start and revise refuse what could never be exported"): start and revise
// refuse a candidate with an entry that is not generated and whose section passes the round's
// budget (4 MiB by default) with budget_exceeded (exit 9) and exact details naming it, the same on
// every run, and write nothing (the whole common dir, object database
// included, byte-identical); export-context (both engines) and verify give a lineage made before
// the check the same details. The expected sizes are computed here from the patch's format (and
// compared with the pinned git CLI where the trees exist), never by the code under test.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_env.h"
#include "tests/support/git_oracle.h"
#include "tests/support/git_repo.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

// "x\n" `lines` times: under 4 MiB itself, while its added diff ("+x\n" per line) passes it.
constexpr size_t kLines = 1950000;
const std::string& Lines() {
  static const std::string text = [] {
    std::string t;
    t.reserve(2 * kLines);
    for (size_t i = 0; i < kLines; ++i) t += "x\n";
    return t;
  }();
  return text;
}

// The bytes of the pinned patch that adds `path` holding Lines(), blob `blob`.
size_t AddedPatchBytes(const std::string& path, const std::string& blob) {
  const std::string header = "diff --git a/" + path + " b/" + path +
                             "\nnew file mode 100644\nindex " + std::string(40, '0') + ".." + blob +
                             "\n--- /dev/null\n+++ b/" + path + "\n@@ -0,0 +1," +
                             std::to_string(kLines) + " @@\n";
  return header.size() + 3 * kLines;
}

std::map<std::string, std::string> Details(const std::string& size, const std::string& bound) {
  return {{"byte_size", size}, {"byte_size_bound", bound}, {"max_bytes", "4194304"}};
}

// start's and revise's refusal of an entry that no part of the review view can hold: the same
// details and the path.
std::map<std::string, std::string> EntryDetails(const std::string& path, const std::string& size,
                                                const std::string& bound) {
  auto details = Details(size, bound);
  details["path"] = path;
  return details;
}

// `args` must be refused with budget_exceeded (exit 9) and exactly `details`, changing nothing
// under the common dir; returns the message.
std::string ExpectBudgetRefusal(const LifecycleRepo& repo, const std::vector<std::string>& args,
                                const std::map<std::string, std::string>& details,
                                const Env& env = {}) {
  const auto before = HashTree(repo.common_dir());
  RunResult r = repo.Review(args, env);
  INFO(Json(args).dump() << " -> " << r.exit_code << "\n" << r.out << r.err);
  CHECK(r.exit_code == 9);
  const Json error = r.Json()["error"];
  CHECK(error["code"] == "budget_exceeded");
  CHECK(error["details"].get<std::map<std::string, std::string>>() == details);
  CHECK(HashTree(repo.common_dir()) == before);
  return error["message"];
}

// The one pack file under `common_dir`'s objects/pack.
std::string OnlyPack(const std::string& common_dir) {
  RunResult found = Run({"find", common_dir + "/objects/pack", "-name", "*.pack"}, common_dir);
  REQUIRE(found.exit_code == 0);
  const std::string path = Trim(found.out);
  REQUIRE_FALSE(path.empty());
  REQUIRE(path.find('\n') == std::string::npos);
  return path;
}

}  // namespace

TEST_CASE("candidate budget: start refuses an oversize workspace candidate - exact and stable") {
  LifecycleRepo repo;
  repo.Write("big.txt", Lines());
  const std::string blob = Trim(repo.GitOk({"hash-object", "big.txt"}));  // not written
  const auto details =
      EntryDetails("big.txt", std::to_string(AddedPatchBytes("big.txt", blob)), "exact");
  const std::vector<std::string> start = {"start", "--untracked", "big.txt"};
  const std::string message = ExpectBudgetRefusal(repo, start, details);
  CHECK(message == "the entry big.txt is " + details.at("byte_size") +
                       " bytes, over the part size of 4194304 bytes, and is not generated; "
                       "nothing is truncated");
  CHECK(ExpectBudgetRefusal(repo, start, details) == message);  // the same on every run
  // The object was never written, and status says start is not due.
  CHECK(repo.Git({"cat-file", "-e", blob}).exit_code != 0);
  const Json status = repo.ReviewOk({"status", "--untracked", "big.txt"});
  CHECK(status["next"] == "none");
  CHECK(status["next_reason"] == "budget_exceeded");
}

TEST_CASE("candidate budget: start of an oversize commit range - the size git prints") {
  LifecycleRepo repo;
  repo.GitOk({"checkout", "-q", "-b", "pr"});
  repo.Write("big.txt", Lines());
  repo.GitOk({"add", "big.txt"});
  repo.GitOk({"commit", "-q", "-m", "big"});
  repo.GitOk({"checkout", "-q", "main"});
  const std::string base = Trim(repo.GitOk({"rev-parse", "main^{tree}"}));
  const std::string head = Trim(repo.GitOk({"rev-parse", "pr^{tree}"}));
  const Result<std::string> run = OracleDiff(repo.common_dir(), base, head);
  REQUIRE(run.ok());
  const std::string& oracle = *run;
  const std::string blob = Trim(repo.GitOk({"rev-parse", "pr:big.txt"}));
  REQUIRE(oracle.size() == AddedPatchBytes("big.txt", blob));
  const auto details = EntryDetails("big.txt", std::to_string(oracle.size()), "exact");
  const std::vector<std::string> start = {"start",  "--kind", "commit-range", "--base", "main",
                                          "--head", "pr"};
  CHECK(ExpectBudgetRefusal(repo, start, details) == ExpectBudgetRefusal(repo, start, details));
}

TEST_CASE(
    "candidate budget: an added binary git add packed whole is refused - the pack's tail unread") {
  LifecycleRepo repo;
  repo.GitOk({"checkout", "-q", "-b", "pr"});
  // 24 MiB of noise (NUL first: binary), which `git add` writes straight into a pack of its own
  // above core.bigFileThreshold, as it does every file over 512 MiB by default.
  std::string noise(24u << 20, '\0');
  uint64_t x = 88172645463325252ull;
  for (size_t i = 1; i < noise.size(); ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    noise[i] = static_cast<char>(x & 0xff);
  }
  repo.Write("big.bin", noise);
  repo.GitOk({"-c", "core.bigFileThreshold=1m", "add", "big.bin"});
  repo.GitOk({"commit", "-q", "-m", "big"});
  repo.GitOk({"checkout", "-q", "main"});
  const std::string blob = Trim(repo.GitOk({"rev-parse", "pr:big.bin"}));
  REQUIRE(repo.Git({"cat-file", "-e", blob}).exit_code == 0);
  const std::string pack = OnlyPack(repo.common_dir());
  const std::vector<std::string> start = {"start",  "--kind", "commit-range", "--base", "main",
                                          "--head", "pr"};
  RunResult first = repo.Review(start);
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 9);
  const auto details = first.Json()["error"]["details"].get<std::map<std::string, std::string>>();
  CHECK(details.at("byte_size_bound") == "at_least");
  CHECK(details.at("max_bytes") == "4194304");
  CHECK(details.at("path") == "big.bin");
  const std::string message = ExpectBudgetRefusal(repo, start, details);
  // The pack's last fifth overwritten (its trailer kept): a whole read of the blob now fails, and
  // the refusal, which reads the start of its literal only, is the same.
  std::string bytes = ReadFile(pack);
  REQUIRE(bytes.size() > noise.size());
  for (size_t i = bytes.size() * 4 / 5; i + 20 < bytes.size(); ++i) bytes[i] = '\x55';
  REQUIRE(::chmod(pack.c_str(), 0644) == 0);
  WriteFile(pack, bytes);
  REQUIRE(repo.Git({"cat-file", "blob", blob}).exit_code != 0);
  CHECK(ExpectBudgetRefusal(repo, start, details) == message);
}

TEST_CASE("candidate budget: revise refuses an oversize round - nothing written") {
  LifecycleRepo repo;
  repo.Write("big.txt", "small at first\n");
  const std::string lineage = repo.ReviewOk({"start", "--untracked", "big.txt"})["lineage"];
  repo.ReviewOk({"verdict", "--lineage", lineage, "--verdict", "REQUEST_CHANGES", "--actor", "ana",
                 "--role", "reviewer", "--body", "Not yet.\n"});
  repo.Write("big.txt", Lines());
  const std::string blob = Trim(repo.GitOk({"hash-object", "big.txt"}));
  const auto details =
      EntryDetails("big.txt", std::to_string(AddedPatchBytes("big.txt", blob)), "exact");
  const std::string message = ExpectBudgetRefusal(repo, {"revise", "--lineage", lineage}, details);
  CHECK(ExpectBudgetRefusal(repo, {"revise", "--lineage", lineage}, details) == message);
  CHECK(repo.Git({"cat-file", "-e", blob}).exit_code != 0);
  const Json status = repo.ReviewOk({"status", "--lineage", lineage});
  CHECK(status["next"] == "none");
  CHECK(status["next_reason"] == "budget_exceeded");
}

TEST_CASE("candidate budget: export and verify of an older oversize lineage - the same details") {
  LifecycleRepo repo;
  repo.Write("big.txt", Lines());
  // A lineage as releases before the check made it.
  const Env admit = {{"GENTLE_ADMIT_OVERSIZE", "1"}};
  RunResult started = repo.Review({"start", "--untracked", "big.txt"}, admit);
  REQUIRE(started.exit_code == 0);
  const std::string lineage = started.Json()["lineage"];
  const std::string blob = Trim(repo.GitOk({"hash-object", "big.txt"}));
  const auto details = Details(std::to_string(AddedPatchBytes("big.txt", blob)), "exact");
  std::string message;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"export-context", "--lineage", lineage},
           {"export-context", "--lineage", lineage},
           {"export-context", "--lineage", lineage, "--engine", "git"},
           {"export-context", "--lineage", lineage, "--engine", "git"}}) {
    const std::string got = ExpectBudgetRefusal(repo, args, details);
    if (message.empty()) message = got;
    CHECK(got == message);
  }
  // verify binds the whole diff up to 64 MiB (docs/commands.md, "Views and parts"): it derives
  // this one, whose size it reports.
  RunResult verify = repo.Review({"verify", "--lineage", lineage});
  CHECK(verify.exit_code == 0);
  CHECK(verify.Json()["byte_size"] == AddedPatchBytes("big.txt", blob));
  const Json status = repo.ReviewOk({"status", "--lineage", lineage});
  CHECK(status["lineages"][0]["state"] == "reviewing");
  CHECK(status["next"] == "none");
  CHECK(status["next_reason"] == "budget_exceeded");
}

TEST_CASE("candidate budget: a small change passes on header sizes and starts") {
  LifecycleRepo repo;
  repo.Write("a.txt", "a small change\n");
  const Json started = repo.ReviewOk({"start"});
  CHECK(started["created"] == true);
  // Its objects were written once accepted: the history and export read them.
  const Json envelope = repo.ReviewOk({"export-context", "--lineage", started["lineage"]});
  CHECK(envelope["next"] == "verdict");
}

}  // namespace gentle::testing
