// Differential test: the native engine against the pinned git oracle on the fixture corpus
// (fixtures/make-diff-corpus.sh), every pair in both directions and against the empty tree.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/git_env.h"
#include "tests/support/git_oracle.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

constexpr const char* kEmptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

struct CorpusPair {
  std::string name, base, candidate;
};

std::vector<CorpusPair> BuildCorpus(const std::string& dir) {
  RunResult r = Run({"bash", std::string(GENTLE_FIXTURES_DIR) + "/make-diff-corpus.sh", dir}, "",
                    OracleEnv());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  std::ifstream in(dir + "/pairs.txt");
  std::vector<CorpusPair> pairs;
  CorpusPair p;
  while (in >> p.name >> p.base >> p.candidate) pairs.push_back(p);
  return pairs;
}

void RequireIdentical(git_repository* repo, const std::string& git_dir, const std::string& label,
                      const std::string& base, const std::string& candidate) {
  Result<std::string> oracle = OracleDiff(git_dir, base, candidate);
  REQUIRE(oracle.ok());
  auto engine = EngineDiff(repo, base, candidate);
  INFO(label << ": " << base << " -> " << candidate);
  INFO(engine.status().message());
  REQUIRE(engine.ok());
  INFO(FirstDifference(*oracle, engine->bytes));
  CHECK(engine->bytes == *oracle);
}

}  // namespace

TEST_CASE("engine matches the git oracle on the fixture corpus", "[engine][corpus]") {
  TempDir dir;
  std::vector<CorpusPair> pairs = BuildCorpus(dir.path());
  REQUIRE(pairs.size() >= 8);
  const std::string git_dir = dir.path() + "/corpus.git";
  RepoHandle repo(git_dir);
  int compared = 0;
  for (const CorpusPair& p : pairs) {
    RequireIdentical(repo.get(), git_dir, p.name + " forward", p.base, p.candidate);
    RequireIdentical(repo.get(), git_dir, p.name + " reverse", p.candidate, p.base);
    RequireIdentical(repo.get(), git_dir, p.name + " from empty", kEmptyTree, p.candidate);
    RequireIdentical(repo.get(), git_dir, p.name + " to empty", p.base, kEmptyTree);
    compared += 4;
  }
  RequireIdentical(repo.get(), git_dir, "identical trees", pairs[0].base, pairs[0].base);
  WARN("corpus tree pairs compared: " << compared + 1);
}

}  // namespace gentle::testing

namespace gentle::testing {

// The engine reads no configuration and no attributes: a hostile repository config and an
// info/attributes file that would change git's own output leave the engine's bytes unchanged.
TEST_CASE("engine ignores repository configuration and attributes", "[engine][corpus]") {
  TempDir dir;
  std::vector<CorpusPair> pairs = BuildCorpus(dir.path());
  const std::string git_dir = dir.path() + "/corpus.git";
  std::vector<std::string> baseline;
  for (const CorpusPair& p : pairs) {
    Result<std::string> oracle = OracleDiff(git_dir, p.base, p.candidate);
    REQUIRE(oracle.ok());
    baseline.push_back(*oracle);
  }
  const std::vector<std::pair<std::string, std::string>> hostile = {
      {"core.quotePath", "false"},      {"diff.suppressBlankEmpty", "true"},
      {"diff.interHunkContext", "5"},   {"diff.context", "10"},
      {"diff.algorithm", "patience"},   {"diff.indentHeuristic", "true"},
      {"diff.noprefix", "true"},        {"diff.mnemonicPrefix", "true"},
      {"core.bigFileThreshold", "1k"},  {"core.ignorecase", "true"},
      {"core.autocrlf", "true"},        {"core.abbrev", "7"},
      {"diff.renames", "copies"},       {"core.compression", "9"},
      {"diff.ignoreSubmodules", "all"}, {"core.loosecompression", "9"}};
  for (const auto& [key, value] : hostile) {
    REQUIRE(Run({"git", "--git-dir=" + git_dir, "config", key, value}, "", OracleEnv()).exit_code ==
            0);
  }
  std::filesystem::create_directories(git_dir + "/info");
  std::ofstream(git_dir + "/info/attributes") << "* binary\n*.c diff=cpp\n*.py -diff\n";
  // The same objects in a non-bare clone with worktree attributes, opened from the worktree.
  const std::string worktree = dir.path() + "/clone";
  REQUIRE(
      Run({"git", "clone", "-q", "--no-checkout", git_dir, worktree}, "", OracleEnv()).exit_code ==
      0);
  std::ofstream(worktree + "/.gitattributes") << "* binary\n*.c diff=cpp\n";
  for (const std::string& where : {git_dir, worktree}) {
    RepoHandle repo(where);
    for (size_t i = 0; i < pairs.size(); ++i) {
      auto engine = EngineDiff(repo.get(), pairs[i].base, pairs[i].candidate);
      INFO(where << ": " << pairs[i].name);
      REQUIRE(engine.ok());
      INFO(FirstDifference(baseline[i], engine->bytes));
      CHECK(engine->bytes == baseline[i]);
    }
  }
}

}  // namespace gentle::testing
