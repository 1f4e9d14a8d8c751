#include "store/status.h"

#include <catch2/catch.hpp>

namespace gentle {

TEST_CASE("every code has its documented name and exit code") {
  CHECK(CodeName(Code::kNotFound) == "not_found");
  CHECK(ExitCodeFor(Code::kUsage) == 2);
  CHECK(ExitCodeFor(Code::kNotFound) == 3);
  CHECK(ExitCodeFor(Code::kConsumed) == 4);
  CHECK(ExitCodeFor(Code::kRetired) == 5);
  CHECK(ExitCodeFor(Code::kReadOnly) == 6);
  CHECK(ExitCodeFor(Code::kReconciliationPrepared) == 6);
  CHECK(ExitCodeFor(Code::kWrongState) == 6);
  CHECK(ExitCodeFor(Code::kForbidden) == 6);
  CHECK(ExitCodeFor(Code::kCorrupted) == 7);
  CHECK(ExitCodeFor(Code::kAmbiguous) == 7);
  CHECK(ExitCodeFor(Code::kObjectsMissing) == 8);
  CHECK(ExitCodeFor(Code::kBudgetExceeded) == 9);
  CHECK(ExitCodeFor(Code::kIntegrityMismatch) == 10);
  CHECK(ExitCodeFor(Code::kNotReviewed) == 10);
  CHECK(ExitCodeFor(Code::kConflict) == 11);
  CHECK(ExitCodeFor(Code::kBusy) == 12);
  CHECK(ExitCodeFor(Code::kInternal) == 1);
  CHECK(CodeName(Code::kReconciliationPrepared) == "reconciliation_prepared");
  CHECK(CodeName(Code::kIntegrityMismatch) == "integrity_mismatch");
}

}  // namespace gentle
