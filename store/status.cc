#include "store/status.h"

#include "store/name_table.h"

namespace gentle {

namespace {
constexpr store::NameTable kCodeNames = store::MakeNameTable<Code>({
    {Code::kOk, "ok"},
    {Code::kInternal, "internal"},
    {Code::kUsage, "usage"},
    {Code::kNotFound, "not_found"},
    {Code::kConsumed, "consumed"},
    {Code::kRetired, "retired"},
    {Code::kReadOnly, "read_only"},
    {Code::kReconciliationPrepared, "reconciliation_prepared"},
    {Code::kWrongState, "wrong_state"},
    {Code::kForbidden, "forbidden"},
    {Code::kCorrupted, "corrupted"},
    {Code::kAmbiguous, "ambiguous"},
    {Code::kObjectsMissing, "objects_missing"},
    {Code::kBudgetExceeded, "budget_exceeded"},
    {Code::kIntegrityMismatch, "integrity_mismatch"},
    {Code::kNotReviewed, "not_reviewed"},
    {Code::kConflict, "conflict"},
    {Code::kBusy, "busy"},
    {Code::kUntrusted, "untrusted"},
    {Code::kContextUnavailable, "context_unavailable"},
});
}  // namespace

// A value past the last code is "internal" (cli/man_page.cc walks the codes until it sees one).
std::string_view CodeName(Code code) {
  const std::string_view name = kCodeNames.Name(code);
  return name.empty() ? kCodeNames.Name(Code::kInternal) : name;
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
