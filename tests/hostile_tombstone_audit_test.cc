// Tombstones and quarantine audit records are untrusted files: each is parsed strictly (no key
// twice, no trailing data, bounded nesting, UTF-8) and a damaged one is `corrupted`, through the
// parsers and through the CLI, never read as something it does not say.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "store/audit_record.h"
#include "store/tombstone.h"
#include "tests/support/files.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

const std::string kRepo = "sha256:" + std::string(64, 'a');
const std::string kTarget = "sha256:" + std::string(64, 'b');

std::string GoodTombstone() {
  return store::EncodeTombstone(kRepo, kTarget, "review-0123456789abcdef");
}

std::string GoodAudit() {
  store::AuditRecord r;
  r.status = store::index::RowStatus::kCommitted;
  r.lineage_id = "review-0123456789abcdef";
  r.reason = "operator_disposition";
  r.actor = "ops";
  r.reclaimed_at = "2026-11-30T00:00:00Z";
  r.source_path = "/x/v2/review-0123456789abcdef";
  r.quarantine_path = "/x/quarantine/review-0123456789abcdef-1";
  r.residue = {"review-state.json"};
  return store::EncodeAuditRecord(r, nullptr);
}

void ExpectCorrupted(const Result<store::index::TombstoneRow>& row, const std::string& fragment) {
  REQUIRE_FALSE(row.ok());
  CHECK(row.status().code() == Code::kCorrupted);
  CHECK_THAT(row.status().message(), Catch::Contains(fragment));
}

void ExpectCorrupted(const Result<store::AuditRecord>& record, const std::string& fragment) {
  REQUIRE_FALSE(record.ok());
  CHECK(record.status().code() == Code::kCorrupted);
  CHECK_THAT(record.status().message(), Catch::Contains(fragment));
}

}  // namespace

TEST_CASE("tombstone parsing is strict about keys - trailing data - nesting and UTF-8") {
  const std::string key = store::TombstoneKey(kRepo, kTarget);
  REQUIRE(store::ParseTombstone(GoodTombstone(), key).ok());
  std::string good = GoodTombstone();

  // The lineage key twice: which copy wins would be up to the reader.
  std::string twice = good.substr(0, good.size() - 1) + ",\"lineage\":\"review-ffffffffffffffff\"}";
  ExpectCorrupted(store::ParseTombstone(twice, key), "holds the key \"lineage\" twice");
  ExpectCorrupted(store::ParseTombstone(good + "{}", key), "is not valid JSON");
  ExpectCorrupted(store::ParseTombstone(good + "\n\"x\"", key), "is not valid JSON");
  std::string nested = good.substr(0, good.size() - 1) + ",\"x\":[[1]]}";
  ExpectCorrupted(store::ParseTombstone(nested, key), "is nested too deeply");
  std::string latin1 = good;
  latin1.replace(latin1.find("review-0"), 1, "\xe9");
  ExpectCorrupted(store::ParseTombstone(latin1, key), "is not valid JSON");
}

TEST_CASE("audit record parsing is strict about keys - trailing data - nesting - UTF-8 and types") {
  REQUIRE(store::ParseAuditRecord(GoodAudit()).ok());
  std::string good = GoodAudit();
  const size_t close = good.rfind('}');

  std::string twice = good.substr(0, close) + ",\"status\":\"prepared\"}\n";
  ExpectCorrupted(store::ParseAuditRecord(twice), "holds the key \"status\" twice");
  ExpectCorrupted(store::ParseAuditRecord(good + "[]"), "is not valid JSON");
  std::string deep =
      good.substr(0, close) + ",\"x\":" + std::string(100, '[') + std::string(100, ']') + "}\n";
  ExpectCorrupted(store::ParseAuditRecord(deep), "is nested too deeply");
  std::string latin1 = good;
  latin1.replace(latin1.find("ops"), 1, "\xff");
  ExpectCorrupted(store::ParseAuditRecord(latin1), "is not valid JSON");

  auto with = [&](const std::string& member, const std::string& value) {
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(good);
    j[member] = nlohmann::ordered_json::parse(value);
    return j.dump(2) + "\n";
  };
  ExpectCorrupted(store::ParseAuditRecord(with("actor", "42")), "\"actor\" of the wrong type");
  ExpectCorrupted(store::ParseAuditRecord(with("residue", "\"review-state.json\"")),
                  "\"residue\" of the wrong type");
  ExpectCorrupted(store::ParseAuditRecord(with("residue", "[\"a\",1]")),
                  "\"residue\" of the wrong type");
  // Members it does not read may be anything well-formed.
  CHECK(store::ParseAuditRecord(with("abandonment", "{\"why\":[1,2]}")).ok());
}

TEST_CASE("through the CLI a tombstone with a key twice is corrupted - not consumed") {
  LifecycleRepo repo;
  auto approved = repo.StartApproved();
  RunResult burn = repo.Review({"burn", "--lineage", approved.lineage, "--token", approved.token,
                                "--expected-revision", approved.revision});
  REQUIRE(burn.exit_code == 0);
  RunResult consumed = repo.Review({"export-context", "--lineage", approved.lineage});
  REQUIRE(consumed.exit_code == 4);
  const std::string path = consumed.Json()["error"]["details"]["tombstone"];
  std::string bytes = ReadFile(path);
  WriteFile(path, bytes.substr(0, bytes.size() - 1) + ",\"lineage\":\"" + approved.lineage + "\"}");

  RunResult r = repo.Review({"export-context", "--lineage", approved.lineage});
  CHECK(r.exit_code == 7);
  CHECK(r.Json()["error"]["code"] == "corrupted");
  CHECK_THAT(r.Json()["error"]["message"].get<std::string>(), Catch::Contains("twice"));
}

TEST_CASE("through the CLI an audit record with a key twice is corrupted - not retired") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  REQUIRE(repo.Review({"abandon", "--lineage", lineage, "--reason", "operator_disposition",
                       "--actor", "ops"})
              .exit_code == 0);
  RunResult retired = repo.Review({"export-context", "--lineage", lineage});
  REQUIRE(retired.exit_code == 5);
  const std::string path = retired.Json()["error"]["details"]["audit_record"];
  std::string bytes = ReadFile(path);
  const size_t close = bytes.rfind('}');
  WriteFile(path, bytes.substr(0, close) + ",\"lineage_id\":\"" + lineage + "\"}\n");

  RunResult r = repo.Review({"export-context", "--lineage", lineage});
  CHECK(r.exit_code == 7);
  CHECK(r.Json()["error"]["code"] == "corrupted");
}

}  // namespace gentle::testing
