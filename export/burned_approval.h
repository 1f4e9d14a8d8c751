// BurnedApproval: the approved record a burned lineage's history keeps (docs/ci.md,
// docs/format.md). Read-only; shared by verify --against and attest.
//
// The history's tip must be the terminal `burn` commit and hold a record of the lineage that
// verifies. Without such a history (burned by the Go gentle-ai, or by an earlier build, which
// deleted the history ref) the answer stays `consumed`; a burn commit whose record does not verify
// is `corrupted`.
#ifndef GENTLE_EXPORT_BURNED_APPROVAL_H_
#define GENTLE_EXPORT_BURNED_APPROVAL_H_

#include <string>

#include "store/git/repository.h"
#include "store/record.h"
#include "store/status.h"

namespace gentle::exporter {

Result<store::RecordView> BurnedApproval(const store::git::Repository& repo,
                                         const std::string& lineage);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_BURNED_APPROVAL_H_
