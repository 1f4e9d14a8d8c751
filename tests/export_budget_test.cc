// The budget through the built CLI: export-context (both engines) refuses a lineage whose untracked
// file is too large to fit from what the object's header and first bytes say, without reading it
// whole (its loose object is damaged past its middle, and nothing changes in the repository),
// while verify --lineage, which binds the whole diff up to 64 MiB, reads it and finds the damage;
// status hashes a large file in pieces and agrees with what start stored.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/support/damaged_object.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_env.h"
#include "tests/support/git_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

std::string TextOf(size_t bytes) {
  std::string text;
  for (int i = 0; text.size() < bytes; ++i) text += "row " + std::to_string(i) + " of text\n";
  text.resize(bytes);
  text.back() = '\n';
  return text;
}

// start refuses an oversize candidate now (tests/candidate_budget_test.cc): these lineages are
// made as releases before that check made them.
std::string StartUntracked(const std::string& repo, const std::string& path) {
  RunResult r = GentleAi({"review", "start", "--json", "--untracked", path}, repo,
                         {{"GENTLE_ADMIT_OVERSIZE", "1"}});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out)["lineage"];
}

}  // namespace

TEST_CASE("export-context and verify refuse a large untracked file from its size - unread") {
  TempDir tmp;
  const std::string repo = InitRepo(tmp.path());
  const std::string big = TextOf(5 * 1024 * 1024);
  WriteFile(repo + "/big.txt", big);
  const std::string lineage = StartUntracked(repo, "big.txt");
  const std::string blob = Trim(Git(repo, {"hash-object", "big.txt"}));
  DamageLooseBlobTail(repo + "/.git", blob, big, 0.5);
  // The object now holds other bytes: whatever reads it whole sees that they are not `blob`.
  RunResult stored = GitRun(repo, {"cat-file", "blob", blob});
  RunResult rehashed = Run({"git", "hash-object", "--stdin"}, "", OracleEnv(), stored.out);
  REQUIRE(Trim(rehashed.out) != blob);

  const auto before = HashTree(repo + "/.git");
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"review", "export-context", "--lineage", lineage},
           {"review", "export-context", "--lineage", lineage, "--json"},
           {"review", "export-context", "--lineage", lineage, "--engine", "git", "--json"}}) {
    RunResult r = GentleAi(args, repo);
    INFO(args.back() << ": " << r.out << r.err);
    CHECK(r.exit_code == 9);
    if (args.back() == "--json") {
      CHECK(nlohmann::json::parse(r.out)["error"]["code"] == "budget_exceeded");
    } else {
      CHECK(r.out.empty());
      CHECK(r.err.rfind("gentle-ai: budget_exceeded: ", 0) == 0);
    }
  }
  // verify binds the whole diff up to 64 MiB (docs/commands.md, "Views and parts"): it reads the
  // 5 MiB blob whole, so the damage is what it reports.
  RunResult verify = GentleAi({"review", "verify", "--lineage", lineage, "--json"}, repo);
  CHECK(verify.exit_code == 8);
  CHECK(nlohmann::json::parse(verify.out)["error"]["code"] == "objects_missing");
  CHECK(nlohmann::json::parse(verify.out)["error"]["details"]["reason"] == "hash_mismatch");
  CHECK(HashTree(repo + "/.git") == before);
}

TEST_CASE("status hashes a large untracked file in pieces - the id start stored") {
  TempDir tmp;
  const std::string repo = InitRepo(tmp.path());
  std::string data = TextOf(3 * 1024 * 1024 + 5);
  data[100] = '\0';
  WriteFile(repo + "/big.bin", data);
  const std::string lineage = StartUntracked(repo, "big.bin");
  auto applicability = [&] {
    RunResult r = GentleAi({"review", "status", "--json", "--lineage", lineage}, repo);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out)["lineages"][0]["applicability"].get<std::string>();
  };
  CHECK(applicability() == "current_target");
  data[data.size() - 2] = 'X';  // past the first 64 KiB read
  WriteFile(repo + "/big.bin", data);
  CHECK(applicability() == "unrelated");
}

}  // namespace gentle::testing
