// Hostile object databases where only a hash check can tell: a frozen blob's or tree's loose file
// replaced by another valid object of the same type under the same file name (zlib, header and
// type all fine). libgit2's own check is off in the product (store/git/object_reader.h); these pin
// that the project's check refuses them, end to end, with one clear code and nothing written.

#include <catch2/catch.hpp>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"
#include "tests/support/hostile.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

std::string CandidateTree(const StoreFixture& f) {
  return nlohmann::json::parse(
      ReadFile(f.record_path()))["state"]["initial_snapshot"]["candidate_tree"];
}

// A new loose blob with `content`; its id.
std::string WriteBlob(const StoreFixture& f, const std::string& content) {
  const std::string file = f.tmp.path() + "/donor.txt";
  WriteFile(file, content);
  return Trim(Git(f.repo, {"hash-object", "-w", file}));
}

void Swap(const StoreFixture& f, const std::string& victim, const std::string& donor) {
  ReplaceLooseObject(f.git(), victim, donor);
}

}  // namespace

TEST_CASE("a frozen blob's loose object replaced by another blob's") {
  StoreFixture f;
  const std::string tree = CandidateTree(f);
  REQUIRE(GentleAi({"review", "export-context", "--lineage", f.lineage}, f.repo).exit_code == 0);
  SECTION("candidate side") {
    const std::string blob = Trim(Git(f.repo, {"rev-parse", tree + ":a.txt"}));
    Swap(f, blob, WriteBlob(f, "alpha\nswapped in\n"));
    auto doc = ExpectOutcome({"review", "export-context", "--lineage", f.lineage}, f.repo, 8,
                             "objects_missing");
    CHECK(doc["error"]["details"]["object"] == blob);
    CHECK(doc["error"]["details"]["path"] == "a.txt");
  }
  SECTION("base side") {
    const std::string blob = Trim(Git(f.repo, {"rev-parse", "HEAD:a.txt"}));
    Swap(f, blob, WriteBlob(f, "omega\n"));
    ExpectOutcome({"review", "export-context", "--lineage", f.lineage}, f.repo, 8,
                  "objects_missing");
  }
  ExpectOutcome({"review", "verify", "--lineage", f.lineage}, f.repo, 8, "objects_missing");
}

TEST_CASE("a frozen tree's loose object replaced by another tree's") {
  StoreFixture f;
  const std::string tree = CandidateTree(f);
  const std::string base = Trim(Git(f.repo, {"rev-parse", "HEAD^{tree}"}));
  REQUIRE(base != tree);
  Swap(f, tree, base);
  ExpectOutcome({"review", "export-context", "--lineage", f.lineage}, f.repo, 8, "objects_missing");
  ExpectOutcome({"review", "verify", "--lineage", f.lineage}, f.repo, 8, "objects_missing");
}

}  // namespace gentle::testing
