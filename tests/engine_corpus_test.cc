// Differential test: the native engine against the pinned git oracle on the fixture corpus
// (fixtures/make-diff-corpus.sh), every pair in both directions and against the empty tree.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "git_oracle.h"
#include "tests/test_repo.h"

namespace gentle::testing {
namespace {

constexpr const char* kEmptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

struct CorpusPair {
  std::string name, base, candidate;
};

std::vector<CorpusPair> BuildCorpus(const std::string& dir) {
  CommandResult r = RunCommand(
      {"bash", std::string(GENTLE_FIXTURES_DIR) + "/make-diff-corpus.sh", dir}, OracleEnv());
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
