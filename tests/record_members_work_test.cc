// A mutation's rewrite of a record is linear in the state's members this tool does not know
// (docs/performance.md, "Records with many unknown members"), proven by counting work, not by
// timing it: tests/tools/record_rewrite.cc does the rewrite once (the strict ordered re-read,
// store::ToCompactState, store::EncodeRecordFile), and callgrind counts the instructions of that
// call alone, which do not depend on the machine's load. Linear work grows about 4x from N to 4N
// members (the member sort adds a logarithm); a rewrite that searches the object per member, as
// nlohmann's ordered operator[] and at() do, grows about 16x.
//
// valgrind is a prerequisite (scripts/install-deps.sh): a missing one fails the test. A sanitizer
// build's tool cannot run under valgrind (the sanitizer runtimes and valgrind both own the
// address space), so there (CTest sets GENTLE_SANITIZER_BUILD=1) the tool runs bare and only its
// result is checked.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

std::string RecordRewrite() { return std::string(GENTLE_BUILD_DIR) + "/tests/record-rewrite"; }

bool UnderSanitizers() {
  const char* sanitized = std::getenv("GENTLE_SANITIZER_BUILD");
  return sanitized != nullptr && std::string(sanitized) == "1";
}

// The rewrite's own instructions for `members` unknown members (callgrind's count of
// record_rewrite_work and everything it calls).
long long RewriteInstructions(long members) {
  TempDir dir;
  const std::string out = dir.path() + "/callgrind.out";
  RunResult run =
      Run({"valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
           "--toggle-collect=record_rewrite_work", RecordRewrite(), std::to_string(members)},
          "", {}, "", 300000);
  INFO("valgrind stderr: " << run.err);
  REQUIRE_FALSE(run.timed_out);
  REQUIRE(run.exit_code == 0);  // valgrind is a prerequisite: its absence fails
  // The rewritten state: the unknown members and the known ones, less created_at.
  CHECK(run.out.find("members " + std::to_string(members + 6) + "\n") != std::string::npos);
  std::ifstream file(out);
  REQUIRE(file.good());
  std::string line;
  while (std::getline(file, line)) {
    if (line.rfind("totals: ", 0) == 0) return std::stoll(line.substr(8));
  }
  FAIL("no totals line in " << out);
  return 0;
}

}  // namespace

TEST_CASE("record members work: a rewrite is linear in the unknown state members") {
  if (UnderSanitizers()) {
    RunResult run = Run({RecordRewrite(), "8000"}, "", {}, "", 60000);
    REQUIRE(run.exit_code == 0);
    CHECK(run.out.find("members 8006\n") != std::string::npos);
    return;
  }
  const long long small = RewriteInstructions(2000);
  const long long large = RewriteInstructions(8000);
  INFO("instructions: 2000 members " << small << ", 8000 members " << large);
  REQUIRE(small > 0);
  // Linear: about 4x (measured 4.1x); quadratic: about 16x.
  CHECK(large < 6 * small);
  CHECK(large > 3 * small);
}

}  // namespace gentle::testing
