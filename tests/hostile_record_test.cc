// Hostile record files under a live lineage: over 32 MiB, truncated, not UTF-8, duplicate keys,
// deeply nested JSON. Every defect except truncation is planted in a record whose revision is
// computed from its exact bytes, so the defect itself must be what is refused. The three lineage
// readers give `corrupted` (exit 7); status reports the entry as corrupted and succeeds, list
// still lists it from the index, fsck reports the finding (exit 7);
// start of the same candidate refuses rather than overwrite; nothing is modified.
// (A tampered state byte and a "not JSON" record are covered in status_list_test.cc and
// export_context_test.cc.)
#include <catch2/catch.hpp>

#include "tests/support/files.h"
#include "tests/support/hostile.h"

namespace gentle::testing {
namespace {

// The fixture's state member as compact text with `extra` inserted as its last members.
std::string StateWith(const StoreFixture& f, const std::string& extra) {
  auto doc = nlohmann::ordered_json::parse(ReadFile(f.record_path()));
  std::string state = doc["state"].dump();
  REQUIRE(state.back() == '}');
  state.pop_back();
  return state + extra + "}";
}

void ExpectCorruptedEverywhere(const StoreFixture& f) {
  for (const auto& args : LineageReaders(f.lineage)) ExpectOutcome(args, f.repo, 7, "corrupted");
  // list is the index's catalog (it does not re-read records); fsck is what flags the record.
  auto list = ExpectOutcome({"review", "list"}, f.repo, 0, "");
  REQUIRE(list["lineages"].size() == 1);
  ExpectFsckFinding(f.repo, f.lineage);
  auto status = ExpectOutcome({"review", "status"}, f.repo, 0, "");
  REQUIRE(status["lineages"].size() == 1);
  CHECK(status["lineages"][0]["applicability"] == "corrupted");
  ExpectOutcome({"review", "start"}, f.repo, 7, "corrupted", {}, StartMayChange(false));
}

}  // namespace

TEST_CASE("a record over 32 MiB is corrupted and is not read into a parse") {
  StoreFixture f;
  const std::string padding(33u << 20, 'x');
  WriteFile(f.record_path(), RecordWithRawState(StateWith(f, ",\"padding\":\"" + padding + "\"")));
  REQUIRE(ReadFile(f.record_path()).size() > (32u << 20));
  ExpectCorruptedEverywhere(f);
}

TEST_CASE("a truncated record is corrupted at every cut") {
  StoreFixture f;
  const std::string whole = ReadFile(f.record_path());
  for (size_t cut : {size_t{0}, size_t{1}, whole.size() / 3, whole.size() / 2, whole.size() - 3}) {
    INFO("cut at " << cut << " of " << whole.size());
    WriteFile(f.record_path(), whole.substr(0, cut));
    ExpectCorruptedEverywhere(f);
  }
}

TEST_CASE("a record that is not UTF-8 is corrupted") {
  StoreFixture f;
  SECTION("invalid byte in a string") {
    WriteFile(f.record_path(), RecordWithRawState(StateWith(f, ",\"note\":\"caf\xe9\"")));
  }
  SECTION("overlong encoding of '/'") {
    WriteFile(f.record_path(), RecordWithRawState(StateWith(f, ",\"note\":\"..\xc0\xaf..\"")));
  }
  SECTION("UTF-16 surrogate encoded as UTF-8") {
    WriteFile(f.record_path(), RecordWithRawState(StateWith(f, ",\"note\":\"\xed\xa0\x80\"")));
  }
  SECTION("invalid byte in a key") {
    WriteFile(f.record_path(), RecordWithRawState(StateWith(f, ",\"\xff\":1")));
  }
  ExpectCorruptedEverywhere(f);
}

TEST_CASE("a record with duplicate keys is corrupted") {
  StoreFixture f;
  SECTION("state name given twice") {
    WriteFile(f.record_path(), RecordWithRawState(StateWith(f, ",\"state\":\"approved\"")));
  }
  SECTION("lineage_id given twice") {
    WriteFile(f.record_path(),
              RecordWithRawState(StateWith(f, ",\"lineage_id\":\"review-ffffffffffffffff\"")));
  }
  SECTION("duplicate inside a nested object") {
    WriteFile(f.record_path(), RecordWithRawState(StateWith(f, ",\"x\":{\"k\":1,\"k\":2}")));
  }
  SECTION("duplicate top-level member") {
    std::string bytes = ReadFile(f.record_path());
    bytes.insert(bytes.find("\"state\""), "\"schema\": \"gentle-ai.review-state-record/v2\",\n  ");
    WriteFile(f.record_path(), bytes);
  }
  ExpectCorruptedEverywhere(f);
}

TEST_CASE("a deeply nested record is corrupted - not a stack overflow") {
  StoreFixture f;
  const std::string original = ReadFile(f.record_path());
  for (size_t depth : {size_t{100}, size_t{100000}}) {
    INFO("depth " << depth);
    const std::string nested = std::string(depth, '[') + std::string(depth, ']');
    WriteFile(f.record_path(), original);
    WriteFile(f.record_path(), RecordWithRawState(StateWith(f, ",\"deep\":" + nested)));
    ExpectCorruptedEverywhere(f);
    const std::string objects = [&] {
      std::string s;
      for (size_t i = 0; i < depth; ++i) s += "{\"a\":";
      return s + "1" + std::string(depth, '}');
    }();
    WriteFile(f.record_path(), original);
    WriteFile(f.record_path(), RecordWithRawState(StateWith(f, ",\"deep\":" + objects)));
    ExpectCorruptedEverywhere(f);
  }
}

TEST_CASE("unknown but well-formed nesting below the limit still reads") {
  StoreFixture f;
  const std::string nested = std::string(20, '[') + std::string(20, ']');
  WriteFile(f.record_path(), RecordWithRawState(StateWith(f, ",\"deep\":" + nested)));
  for (const auto& args : LineageReaders(f.lineage)) ExpectOutcome(args, f.repo, 0, "");
}

}  // namespace gentle::testing
