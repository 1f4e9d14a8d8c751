// Hostile object databases: a record whose tree id names a blob, a tree's loose object replaced by
// a blob's loose object under the same file name, and a blob missing under a frozen tree, against
// every record reader (status, export-context, verify --lineage/--envelope) and list. Each gives
// one clear code and modifies nothing. (export-context with a missing blob or tree is covered in
// export_context_test.cc.)
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "store/digests.h"
#include "store/record.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"
#include "tests/support/hostile.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

// Rewrites both snapshots' candidate_tree (and the identity that binds it), keeping the record
// verifiable, so only the object it names is wrong.
void PointCandidateAt(const StoreFixture& f, const std::string& oid) {
  auto doc = nlohmann::ordered_json::parse(ReadFile(f.record_path()));
  nlohmann::ordered_json state = doc["state"];
  for (const char* key : {"initial_snapshot", "current_snapshot"}) {
    auto& snap = state[key];
    snap["candidate_tree"] = oid;
    snap["identity"] = store::SnapshotIdentity(
        {snap["kind"], "", snap["base_tree"], oid, snap["paths_digest"], {}});
  }
  std::string revision;
  WriteFile(f.record_path(), store::EncodeRecordFile(state, &revision));
}

std::string CandidateTree(const StoreFixture& f) {
  return nlohmann::json::parse(
      ReadFile(f.record_path()))["state"]["initial_snapshot"]["candidate_tree"];
}

}  // namespace

TEST_CASE("a record whose candidate tree id names a blob") {
  StoreFixture f;
  const std::string blob = Trim(Git(f.repo, {"rev-parse", "HEAD:a.txt"}));
  PointCandidateAt(f, blob);
  ExpectOutcome({"review", "export-context", "--lineage", f.lineage}, f.repo, 8, "objects_missing");
  ExpectOutcome({"review", "verify", "--lineage", f.lineage}, f.repo, 8, "objects_missing");
  auto status = ExpectOutcome({"review", "status", "--lineage", f.lineage}, f.repo, 0, "");
  CHECK(status["lineages"][0]["applicability"] == "unrelated");
  ExpectOutcome({"review", "list"}, f.repo, 0, "");
}

TEST_CASE("a tree's loose object replaced by a blob's loose object of the same name") {
  StoreFixture f;
  const std::string tree = CandidateTree(f);
  const std::string blob = Trim(Git(f.repo, {"rev-parse", "HEAD:a.txt"}));
  ReplaceLooseObject(f.git(), tree, blob);
  ExpectOutcome({"review", "export-context", "--lineage", f.lineage}, f.repo, 8, "objects_missing");
  ExpectOutcome({"review", "verify", "--lineage", f.lineage}, f.repo, 8, "objects_missing");
  ExpectOutcome({"review", "status", "--lineage", f.lineage}, f.repo, 0, "");
  ExpectOutcome({"review", "list"}, f.repo, 0, "");
}

TEST_CASE("a blob missing under the frozen candidate tree") {
  StoreFixture f;
  const std::string tree = CandidateTree(f);
  RunResult envelope =
      GentleAi({"review", "export-context", "--json", "--lineage", f.lineage}, f.repo);
  REQUIRE(envelope.exit_code == 0);
  const std::string envelope_file = f.tmp.path() + "/envelope.json";
  WriteFile(envelope_file, envelope.out);
  const std::string blob = Trim(Git(f.repo, {"rev-parse", tree + ":a.txt"}));
  REQUIRE(unlink(LooseObjectPath(f.git(), blob).c_str()) == 0);
  ExpectOutcome({"review", "verify", "--lineage", f.lineage}, f.repo, 8, "objects_missing");
  ExpectOutcome({"review", "verify", "--envelope", envelope_file}, f.repo, 8, "objects_missing");
  // status and list read the record and the live workspace, not the frozen blobs.
  ExpectOutcome({"review", "status", "--lineage", f.lineage}, f.repo, 0, "");
  ExpectOutcome({"review", "list"}, f.repo, 0, "");
}

}  // namespace gentle::testing
