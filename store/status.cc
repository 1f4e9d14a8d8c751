#include "store/status.h"

namespace gentle {

std::string_view CodeName(Code code) {
  switch (code) {
    case Code::kOk:
      return "ok";
    case Code::kInternal:
      return "internal";
    case Code::kUsage:
      return "usage";
    case Code::kNotFound:
      return "not_found";
    case Code::kConsumed:
      return "consumed";
    case Code::kRetired:
      return "retired";
    case Code::kReadOnly:
      return "read_only";
    case Code::kReconciliationPrepared:
      return "reconciliation_prepared";
    case Code::kWrongState:
      return "wrong_state";
    case Code::kForbidden:
      return "forbidden";
    case Code::kCorrupted:
      return "corrupted";
    case Code::kAmbiguous:
      return "ambiguous";
    case Code::kObjectsMissing:
      return "objects_missing";
    case Code::kBudgetExceeded:
      return "budget_exceeded";
    case Code::kIntegrityMismatch:
      return "integrity_mismatch";
    case Code::kNotReviewed:
      return "not_reviewed";
    case Code::kConflict:
      return "conflict";
    case Code::kBusy:
      return "busy";
    case Code::kUntrusted:
      return "untrusted";
    case Code::kContextUnavailable:
      return "context_unavailable";
  }
  return "internal";
}

int ExitCodeFor(Code code) {
  switch (code) {
    case Code::kOk:
      return 0;
    case Code::kInternal:
      return 1;
    case Code::kUsage:
      return 2;
    case Code::kNotFound:
      return 3;
    case Code::kConsumed:
      return 4;
    case Code::kRetired:
      return 5;
    case Code::kReadOnly:
    case Code::kReconciliationPrepared:
    case Code::kWrongState:
    case Code::kForbidden:
    case Code::kContextUnavailable:
      return 6;
    case Code::kCorrupted:
    case Code::kAmbiguous:
      return 7;
    case Code::kObjectsMissing:
      return 8;
    case Code::kBudgetExceeded:
      return 9;
    case Code::kIntegrityMismatch:
    case Code::kNotReviewed:
    case Code::kUntrusted:
      return 10;
    case Code::kConflict:
      return 11;
    case Code::kBusy:
      return 12;
  }
  return 1;
}

}  // namespace gentle
