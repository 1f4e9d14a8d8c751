// Hostile lineage ids against every command that takes --lineage: traversal, absolute paths,
// separators, encodings and the length boundary. Each is refused as `usage` (exit 2) before any
// path is built, nothing in .git changes and nothing appears next to the repository.
// (status with a few basic ids is covered in status_list_test.cc; this covers the rest.)
#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/files.h"
#include "tests/support/hostile.h"

namespace gentle::testing {

TEST_CASE("hostile lineage ids are usage for status - export-context and verify") {
  StoreFixture f;
  const std::string outside = f.tmp.path() + "/outside";
  REQUIRE(std::filesystem::create_directory(outside));
  const std::vector<std::string> ids = {
      "../../../outside/x",
      "../../../../../../../../etc/passwd",
      "/etc/passwd",
      "/" + f.lineage_dir().substr(1),
      f.lineage + "/../" + f.lineage,
      f.lineage + "/",
      f.lineage + "/review-state.json",
      ".",
      "review..x",
      "review-.-x",
      "%2e%2e%2foutside",
      "..\\..\\outside",
      "review-ABCDEF",
      "review_0123",
      "review-0123\n",
      " review-0123",
      "review-0123 ",
      "-review",
      "review-",
      "review--0123",
      "review-\xc3\xa9t\xc3\xa9",
      "review-\xff\xfe",
      "~",
      "*",
      "review-0123;touch x",
      std::string(129, 'a'),
      std::string(4096, 'a'),
  };
  for (const auto& id : ids) {
    for (const auto& args : LineageReaders(id)) {
      ExpectOutcome(args, f.repo, 2, "usage", {outside});
    }
    // The --opt=value spelling takes the same path.
    ExpectOutcome({"review", "export-context", "--lineage=" + id}, f.repo, 2, "usage", {outside});
  }
  CHECK(HashTree(outside).size() == 1);
}

TEST_CASE("the longest valid lineage id is looked up - not refused: not_found") {
  StoreFixture f;
  const std::string longest(128, 'a');
  for (const auto& args : LineageReaders(longest)) ExpectOutcome(args, f.repo, 3, "not_found");
}

}  // namespace gentle::testing
