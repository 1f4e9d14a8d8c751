// Hostile context envelopes for `verify --envelope` (an untrusted file, usually from another
// machine): over the 64 MiB read limit, truncated, not UTF-8, duplicate keys, deeply nested. Each
// is refused with one clear code and nothing in the repository changes. (Non-canonical base64,
// wrong size, wrong sha256, swapped trees and a foreign schema are covered in
// export_context_test.cc.)
#include <catch2/catch.hpp>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/hostile.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

struct EnvelopeFixture : StoreFixture {
  std::string envelope;
  std::string file;
  EnvelopeFixture() {
    RunResult r = GentleAi({"review", "export-context", "--json", "--lineage", lineage}, repo);
    REQUIRE(r.exit_code == 0);
    envelope = r.out;
    file = tmp.path() + "/envelope.json";
  }
  void Expect(const std::string& bytes, int exit_code, const std::string& code) {
    WriteFile(file, bytes);
    ExpectOutcome({"review", "verify", "--envelope", file}, repo, exit_code, code,
                  {tmp.path() + "/repo"});
  }
};

}  // namespace

TEST_CASE("an envelope over the 64 MiB read limit is refused before parsing") {
  EnvelopeFixture f;
  std::string big = f.envelope;
  big.insert(1, "\"padding\":\"" + std::string(65u << 20, 'x') + "\",");
  f.Expect(big, 2, "usage");  // "cannot read --envelope": the file is not accepted as input
}

TEST_CASE("a truncated envelope is integrity_mismatch at every cut") {
  EnvelopeFixture f;
  for (size_t cut : {size_t{0}, size_t{1}, f.envelope.size() / 2, f.envelope.size() - 3}) {
    INFO("cut " << cut);
    f.Expect(f.envelope.substr(0, cut), 10, "integrity_mismatch");
  }
}

TEST_CASE("an envelope that is not UTF-8 is integrity_mismatch") {
  EnvelopeFixture f;
  std::string bad = f.envelope;
  bad.insert(1, "\"note\":\"caf\xe9\",");
  f.Expect(bad, 10, "integrity_mismatch");
  bad = f.envelope;
  bad.insert(1, "\"note\":\"\xed\xa0\x80\",");
  f.Expect(bad, 10, "integrity_mismatch");
}

TEST_CASE("an envelope with a duplicate key is integrity_mismatch - whichever copy is right") {
  EnvelopeFixture f;
  const size_t sha = f.envelope.find("\"sha256\":");
  REQUIRE(sha != std::string::npos);
  std::string first_wrong = f.envelope;
  first_wrong.insert(sha, "\"sha256\":\"sha256:" + std::string(64, '0') + "\",");
  f.Expect(first_wrong, 10, "integrity_mismatch");
  const size_t tree = f.envelope.find("\"candidate_tree\":");
  std::string duplicate_tree = f.envelope;
  duplicate_tree.insert(tree, "\"candidate_tree\":\"" + std::string(40, '0') + "\",");
  f.Expect(duplicate_tree, 10, "integrity_mismatch");
}

TEST_CASE("a deeply nested envelope is integrity_mismatch - not a stack overflow") {
  EnvelopeFixture f;
  for (size_t depth : {size_t{100}, size_t{1000000}}) {
    INFO("depth " << depth);
    std::string deep = f.envelope;
    deep.insert(1, "\"deep\":" + std::string(depth, '[') + std::string(depth, ']') + ",");
    f.Expect(deep, 10, "integrity_mismatch");
    f.Expect(std::string(depth, '[') + std::string(depth, ']'), 10, "integrity_mismatch");
  }
}

}  // namespace gentle::testing
