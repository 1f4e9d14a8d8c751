// 100,000 tombstones: classifying a burned lineage is one keyed lookup through the
// tombstones_by_lineage index (asserted on the query plan), not a scan, and the CLI answers
// `consumed` from the index without reading the tombstone directory.
#include <catch2/catch.hpp>
#include <cstdio>

#include "store/index/index_db.h"
#include "tests/support/files.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

std::string Hex64(int n) {
  char buf[65];
  std::snprintf(buf, sizeof(buf), "%064x", n);
  return buf;
}

TEST_CASE("gostore: with 100 - 000 tombstones - consumed is one keyed index lookup") {
  LifecycleRepo repo;
  repo.StartNew();  // creates the store and its index
  const std::string index_path = repo.store_root() + "/index.sqlite";
  {
    auto db = store::index::IndexDb::OpenReadWrite(index_path);
    REQUIRE(db.ok());
    store::index::IndexSnapshot snapshot;
    REQUIRE((*db)
                ->ListLineages([&](const store::index::LineageRow& row) {
                  snapshot.lineages.push_back(row);
                  return true;
                })
                .ok());
    for (int i = 0; i < 100000; ++i) {
      char lineage[32];
      std::snprintf(lineage, sizeof(lineage), "review-%016x", i);
      snapshot.tombstones.push_back({Hex64(i), lineage, "sha256:" + Hex64(i + 1),
                                     "sha256:" + Hex64(7), store::index::RowStatus::kCommitted});
    }
    REQUIRE((*db)->ReplaceAll(snapshot).ok());
    auto plan = (*db)->ExplainQueryPlan(store::index::IndexQuery::kTombstoneByLineage);
    REQUIRE(plan.ok());
    INFO(*plan);
    CHECK(plan->find("SEARCH tombstones USING INDEX tombstones_by_lineage (lineage_id=?)") !=
          std::string::npos);
    CHECK(plan->find("SCAN") == std::string::npos);
    CHECK(plan->find("TEMP B-TREE") == std::string::npos);
    auto quarantine = (*db)->ExplainQueryPlan(store::index::IndexQuery::kQuarantineByLineage);
    REQUIRE(quarantine.ok());
    CHECK(quarantine->find("SEARCH quarantine USING INDEX quarantine_by_lineage") !=
          std::string::npos);
  }
  // Committed rows are trusted without touching the tombstone directory (which does not even
  // exist here): the answer comes from the index alone.
  CHECK_FALSE(Exists(repo.store_root() + "/terminal-consumption"));
  RunResult status = repo.Review({"status", "--lineage", "review-00000000000186a0"});
  CHECK(status.exit_code == 3);
  status = repo.Review({"status", "--lineage", "review-000000000001869f"});
  INFO(status.out << status.err);
  CHECK(status.exit_code == 4);
  CHECK(status.Json()["error"]["code"] == "consumed");
  CHECK(status.Json()["error"]["details"]["tombstone"] ==
        repo.store_root() + "/terminal-consumption/v1/" + Hex64(99999) + ".json");
}

}  // namespace
}  // namespace gentle::testing
