// Large files through the built CLI: status hashes a large file in pieces and agrees with what
// start stored.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/test_repo.h"

namespace gentle::testing {
namespace {

std::string TextOf(size_t bytes) {
  std::string text;
  for (int i = 0; text.size() < bytes; ++i) text += "row " + std::to_string(i) + " of text\n";
  text.resize(bytes);
  text.back() = '\n';
  return text;
}

std::string StartUntracked(const std::string& repo, const std::string& path) {
  RunResult r = GentleAi({"review", "start", "--json", "--untracked", path}, repo);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out)["lineage"];
}

}  // namespace

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
